"""The repair: encoding damage undone before anything is read ("JosÃ©" is "José": text/repair.py).

Off, the answer is read as it arrived. Applied by `grade()` itself, before the view is made."""

from ragpipe.grading.readings.unit import Reading

READING = Reading("repair", "encoding damage repaired before any reading (text/repair.py)", applied_in="grader.grade")
