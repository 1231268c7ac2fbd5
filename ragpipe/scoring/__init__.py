"""Scoring systems: scorecards, slices, comparisons, the leaderboard and the gate, from stored grades."""
