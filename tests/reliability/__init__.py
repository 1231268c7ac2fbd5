"""Reliability: bad inputs, crashes, races, limits."""
