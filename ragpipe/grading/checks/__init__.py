"""The grader's checks, one module each; `registry.py` lists them in the order `grade()` runs them.

A check reads one answer's view (checks/view.py) and returns a finding or
nothing. A finding with a verdict decides the grade (the first one wins);
one without adds evidence (the needle check's requirements, the yes/no an
answer gives). Each check declares its id, the slice of rules.yaml it reads
(a pydantic model) and whether its verdicts are firm or tentative.

This package imports nothing at import time, so that `rules.py` can import
the rules slices that live beside their checks.
"""
