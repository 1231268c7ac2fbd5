"""Grades -> scorecards, and the grader measured: agreement with people, what-if, audit."""
