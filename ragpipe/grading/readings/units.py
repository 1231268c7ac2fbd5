"""Units: the unit of measure written after a figure ("842 MWh" is not the gold's "842 kWh";
text/units.py). Read as a function of the figure, asked of the figures a needle is met by. Off, no
figure is in another unit than the gold's."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ragpipe.grading.readings.unit import Reading
from ragpipe.text.units import other_unit

if TYPE_CHECKING:
    from ragpipe.text.figures import Figure


def _read(view, rules) -> Callable[[Figure], str | None]:
    gold, text = view.question.gold_answer, view.text
    return lambda figure: other_unit(gold, text, figure)


def _none(figure: Figure) -> None:
    return None


READING = Reading(
    "units",
    "a figure's unit of measure against the gold's (text/units.py)",
    read=_read,
    absent=lambda view: _none,
)
