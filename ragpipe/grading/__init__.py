"""Answer -> grade: the rules file, the decline grammar, figures and needles matched in the answer's
own voice, and the grader version."""
