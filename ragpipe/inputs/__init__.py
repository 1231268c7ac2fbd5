"""Reading input files: JSON Lines, and the problem (file, line, field) a bad row becomes."""
