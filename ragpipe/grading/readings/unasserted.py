"""Unasserted: hedges ("either $150 or $175"), corrected statements and denied figures are said, not
asserted (text/unasserted.py). Off, every clause of the own voice is asserted. Applied where the view
blanks them out of what the answer asserts (`AnswerView.text`)."""

from ragpipe.grading.readings.unit import Reading

READING = Reading(
    "unasserted",
    "hedges, corrected statements and denied figures said, not asserted (text/unasserted.py)",
    applied_in="checks/view.py: AnswerView.text",
)
