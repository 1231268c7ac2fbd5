"""Every verdict kept: gradings recorded in grade_history, and the delta between two of them."""
