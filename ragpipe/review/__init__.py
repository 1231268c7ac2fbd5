"""The review report: one static HTML file that shows why every verdict is what it is."""
