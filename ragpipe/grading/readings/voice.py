"""The voice: the sources' voice set apart from the answer's own (text/voice.py), read under rules.yaml's
`attribution` (grading/sections.py: every check of an answer's content sees it).

Off, the whole answer is in its own voice. Applied where the view reads its own voice (`own_voice`)."""

from ragpipe.grading.readings.unit import Reading

READING = Reading(
    "voice",
    "the sources' voice set apart from the answer's own (text/voice.py)",
    reads=("attribution",),
    applied_in="checks/view.py: own_voice",
)
