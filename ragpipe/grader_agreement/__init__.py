"""The grader measured against people: agreement, calibration simulations, ablation, the audit of decline
rules and label collisions."""
