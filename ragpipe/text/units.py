"""A figure's unit of measure, read from the word right after it: "842 kWh" is not "842 MWh".

A gold that states a figure with its unit ("842 kWh.") and an answer that gives the same number in
another unit of the same quantity ("842 MWh") state different amounts. Only units of one family are
compared (energy, power, mass, length, area, volume, data, speed): a unit of another family, or none,
is no contradiction here ("842" alone, or "842 kWh of electricity").
"""

from __future__ import annotations

import re
from decimal import Decimal
from functools import lru_cache

from ragpipe.text.figures import Figure, find_figures

FAMILIES: dict[str, tuple[str, ...]] = {
    "energy": ("wh", "kwh", "mwh", "gwh", "twh", "j", "kj", "mj", "gj", "btu", "mmbtu", "therm", "therms"),
    "power": ("w", "kw", "mw", "gw", "hp"),
    "mass": ("mg", "g", "kg", "t", "tonne", "tonnes", "ton", "tons", "lb", "lbs", "pound", "pounds", "oz", "ounce",
             "ounces"),
    "length": ("mm", "cm", "m", "km", "in", "inch", "inches", "ft", "foot", "feet", "yd", "yard", "yards", "mi",
               "mile", "miles"),
    "area": ("sq ft", "square feet", "square foot", "sq m", "square meters", "square metres", "acre", "acres",
             "hectare", "hectares"),
    "volume": ("ml", "l", "liter", "liters", "litre", "litres", "gal", "gallon", "gallons", "ccf", "hcf",
               "cubic feet", "cubic meters"),
    "data": ("kb", "mb", "gb", "tb", "pb", "byte", "bytes"),
    "speed": ("mph", "km/h", "kph", "mbps", "gbps", "kbps"),
}  # fmt: skip
_SAME = {"tonne": "t", "tonnes": "t", "lbs": "lb", "pound": "lb", "pounds": "lb", "ounce": "oz", "ounces": "oz",
         "inch": "in", "inches": "in", "foot": "ft", "feet": "ft", "yard": "yd", "yards": "yd", "mile": "mi",
         "miles": "mi", "liter": "l", "liters": "l", "litre": "l", "litres": "l", "gallon": "gal", "gallons": "gal",
         "square foot": "sq ft", "square feet": "sq ft", "square meters": "sq m", "square metres": "sq m",
         "acres": "acre", "hectares": "hectare", "therms": "therm", "bytes": "byte", "kph": "km/h",
         "tons": "ton"}  # fmt: skip
_FAMILY_OF = {unit: family for family, units in FAMILIES.items() for unit in units}
_UNIT_AFTER = re.compile(
    r"\s?(" + "|".join(sorted((re.escape(u) for u in _FAMILY_OF), key=len, reverse=True)) + r")(?![\w/])",
    re.IGNORECASE,
)


def unit_after(text: str, end: int) -> tuple[str, str] | None:
    """(family, unit) of the unit written right after the figure ending at `end`, if one."""
    m = _UNIT_AFTER.match(text, end)
    if m is None:
        return None
    unit = m.group(1).lower()
    return _FAMILY_OF[unit], _SAME.get(unit, unit)


@lru_cache(maxsize=4096)  # a gold is read once for all its answers
def _gold_units(gold: str) -> tuple[tuple[Decimal, tuple[str, str]], ...]:
    """(value, (family, unit)) of each figure of `gold` written with a unit."""
    return tuple((g.value, u) for g in find_figures(gold) if (u := unit_after(gold, g.end)) is not None)


def other_unit(gold: str, answer: str, figure: Figure) -> str | None:
    """The unit the answer gives `figure` where the gold gives the same number another unit of the same
    family ("842 MWh" for a gold of "842 kWh"), or None."""
    said = unit_after(answer, figure.end)
    if said is None:
        return None
    for value, wanted in _gold_units(gold):
        if value == figure.value and wanted[0] == said[0] and wanted[1] != said[1]:
            return said[1]
    return None
