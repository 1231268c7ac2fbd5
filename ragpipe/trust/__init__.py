"""How sure a verdict is: the evidence a grade rests on, a confidence learned from people's labels,
firmness by a bound.
"""
