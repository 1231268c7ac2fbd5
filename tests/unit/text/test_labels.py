"""The label a document gives a figure on its line (text/labels.py)."""

from __future__ import annotations

import pytest

from ragpipe.text.labels import line_label, page_labels

BILL = """Northgate Home Security - Monthly Statement
Account holder: Casey Riley
Previous balance: $0.00
Ending balance: $42.99
A loyalty credit of $16.00 will be applied before the due date.
Amount due: $26.99
Total tax .......... $121,954
Net pay\t$2,231.60
Payments received in the period from all accounts and sources: $9.00"""


@pytest.mark.parametrize(
    "figure, label",
    [
        ("$42.99", "Ending balance"),
        ("$26.99", "Amount due"),
        ("$121,954", "Total tax"),  # a dot leader
        ("$2,231.60", "Net pay"),  # a tab
        ("$16.00", None),  # a sentence labels nothing
        ("$9.00", None),  # longer than a label
    ],
)
def test_a_figure_is_labelled_by_the_short_phrase_that_opens_its_line(figure, label):
    assert line_label(BILL, BILL.index(figure)) == label


def test_a_page_gives_each_labelled_amount_its_label():
    assert page_labels(BILL) == [
        ("Previous balance", "$0.00"),
        ("Ending balance", "$42.99"),
        ("Amount due", "$26.99"),
        ("Total tax", "$121,954"),
        ("Net pay", "$2,231.60"),
    ]
