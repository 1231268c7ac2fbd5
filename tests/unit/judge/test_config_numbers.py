"""A judge entry's numbers are finite: an infinite timeout or a NaN temperature is refused when the
configuration is read, naming the field, not when a regrade is half done."""

from __future__ import annotations

import pytest

from ragpipe.judge.config import JudgeError, load_judges


@pytest.mark.parametrize("field", ["timeout: .inf", "temperature: .nan", "prompt_price: -.inf", "budget: .nan"])
def test_a_judge_entry_with_an_infinite_or_nan_number_is_refused_at_load_naming_the_field(tmp_path, field):
    path = tmp_path / "judges.yaml"
    name, value = field.split(": ")
    path.write_text(f"judges:\n  j:\n    base_url: http://127.0.0.1:9/v1\n    model: m\n    {name}: {value}\n")
    with pytest.raises(JudgeError, match=rf"field judges\.j\.{name}: .*finite"):
        load_judges(path)
