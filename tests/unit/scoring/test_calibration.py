"""People's accuracy from a few labels and the grader (PPI++ via ppi-python): what the estimate and
its interval promise, on sets drawn from a known truth."""

import json

import numpy as np
import pandas as pd
import pytest

from ragpipe.grader_agreement.calibration_sim import simulate_calibration
from ragpipe.scoring.calibration import calibrate
from tests.commands import invoke


def _set(size, people, agreement, seed):
    """People's verdicts (1 = correct) with the given accuracy, and a grader agreeing on that share."""
    rng = np.random.default_rng(seed)
    human = (rng.random(size) < people).astype(int)
    grader = np.where(rng.random(size) < agreement, human, 1 - human)
    return human, grader


def test_every_answer_labelled_is_known_not_estimated():
    human, grader = _set(40, 0.8, 0.9, 1)
    c = calibrate(human, grader, grader)
    assert c.estimate == c.low == c.high == human.mean() and c.labels == c.answers == 40


def test_a_good_grader_narrows_the_interval_and_a_useless_one_costs_nothing():
    good, useless = [], []
    for seed in range(30):
        human, grader = _set(300, 0.7, 0.95, seed)
        drawn = np.random.default_rng(seed).choice(300, 40, replace=False)
        c = calibrate(human[drawn], grader[drawn], grader)
        good.append((c.high - c.low) / (c.labels_only_high - c.labels_only_low))
        coin = np.random.default_rng(seed + 99).integers(0, 2, 300)
        u = calibrate(human[drawn], coin[drawn], coin)
        useless.append((u.high - u.low) <= (u.labels_only_high - u.labels_only_low) + 1e-12)
    assert np.mean(good) < 0.8  # the grader's verdicts on all 300 answers carry information
    assert all(useless)  # never wider than the labels alone


def test_the_interval_holds_people_accuracy_as_promised():
    """A strict grader (it misses 15% of what people accept): the raw accuracy is off by ~0.12, the
    calibrated estimate is not, and 95% intervals hold the truth in about 95% of draws."""
    rng = np.random.default_rng(3)
    human = (rng.random(400) < 0.85).astype(int)
    grader = human * (rng.random(400) > 0.15)
    frame = pd.DataFrame(
        {
            "answer_set": "strict",
            "human": np.where(human == 1, "Correct Answer", "Incorrect Answer"),
            "grader": np.where(grader == 1, "Correct Answer", "Incorrect Answer"),
        }
    )
    sim = simulate_calibration(frame, n=60, repeats=300, seed=5)
    s = sim["sets"]["strict"]
    assert s["bias"] < -0.08 and s["estimate_mae"] < 0.04
    assert 0.90 <= s["coverage"] and s["width"] <= s["width_labels_only"]


@pytest.mark.parametrize("said", [1, 0])
@pytest.mark.parametrize("n", [1, 3, 5])
def test_a_few_labels_that_agree_are_not_a_zero_width_interval(said, n):
    """Three labels all "correct" once gave [100, 100]: Wilson's interval below MIN_TUNED_LABELS."""
    human = np.full(n, said)
    grader_all = np.full(200, said)
    c = calibrate(human, human, grader_all)
    assert not c.tuned and c.high - c.low > 0.3 and c.low <= c.estimate <= c.high
    assert (c.low, c.high) == (c.labels_only_low, c.labels_only_high) and (c.high == 1.0 if said else c.low == 0.0)


def test_no_labels_is_refused():
    with pytest.raises(ValueError, match="no labelled answer"):
        calibrate(np.array([]), np.array([]), np.array([1, 0, 1]))


def test_agreement_calibrate_on_a_jsonl_set(tmp_path):
    """`agreement --labels FILE --calibrate N --json`, on a generic labelled file of two systems."""
    path = tmp_path / "labels.jsonl"
    names = ["Dana Ortiz", "Sam Reyes", "Lee Park", "Ana Silva", "Tom Berg", "Ida Moss", "Raj Patel", "Eva Lund"]
    lines = []
    for system, right in (("good", 30), ("poor", 18)):  # 30 labels of 40 leave each set 5 a side, mostly
        for i in range(40):
            winner, other = names[i % 8], names[(i + 1) % 8]
            said = winner if i < right else other
            lines.append({"question": f"Who won race {i}?", "gold_answer": winner, "answer": f"{said} won race {i}.",
                          "label": "correct" if i < right else "incorrect", "system": system})  # fmt: skip
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    # 30 labels of 40: the tuned interval is only reported from MIN_TUNED_LABELS labels on
    result = invoke("agreement", "--labels", str(path), "--calibrate", "30", "--repeats", "20", "--json")
    assert result.exit_code == 0, result.output
    sim = json.loads(result.stdout)["calibration"]
    assert set(sim["sets"]) == {"labeled:good", "labeled:poor"}
    assert sim["sets"]["labeled:good"]["human_accuracy"] == 0.75 and sim["ranking"]["kendall_tau"] == 1.0
    good = sim["sets"]["labeled:good"]
    assert good["grader_accuracy"] == 0.75 and good["bias"] == 0  # the grader agrees with every label here ...
    assert all(s["width"] < s["width_labels_only"] for s in sim["sets"].values())  # ... so it narrows the interval


def test_two_systems_difference_by_peoples_labels_on_the_questions_both_have():
    from ragpipe.scoring.compare import people_difference

    rng = np.random.default_rng(11)
    questions = [f"q{i:02d}" for i in range(80)]
    human_a, grader_a = _set(80, 0.6, 0.9, 1)
    human_b, grader_b = _set(80, 0.8, 0.9, 2)

    def grades(name, grader):
        return pd.DataFrame(
            {"question_id": questions, "answer_id": [f"{name}-{q}" for q in questions],
             "verdict": np.where(grader == 1, "correct", "wrong"), "kind": "answerable"}
        )  # fmt: skip

    a, b = grades("a", grader_a), grades("b", grader_b)
    picked = rng.choice(80, 40, replace=False)
    label = {1: "Correct Answer", 0: "Incorrect Answer"}
    people = pd.Series(
        {**{f"a-{questions[i]}": label[human_a[i]] for i in picked}, **{f"b-{questions[i]}": label[human_b[i]] for i in picked[:30]}}
    )  # fmt: skip
    said = people_difference(a, b, people)
    assert said["labelled_questions"] == 30  # only questions people labelled for both systems count
    assert -1 <= said["people_low"] <= said["people_diff"] <= said["people_high"] <= 1
    assert said["people_high"] - said["people_low"] <= said["labels_only_high"] - said["labels_only_low"]
    assert people_difference(a, b, people[people.index.str.startswith("a-")]) is None


def test_a_scorecard_with_three_labels_shows_an_honest_interval_and_its_n():
    from ragpipe.scoring.scorecard import calibrated_columns, people_short

    grades = pd.DataFrame({"answer_id": [f"a{i}" for i in range(31)], "kind": "answerable", "verdict": "correct"})
    people = pd.Series({"a0": "Correct Answer", "a1": "Correct Answer", "a2": "Correct Answer"})
    card = calibrated_columns(grades, people)
    assert card["labels"] == 3 and card["people_high"] == 100.0 and card["people_low"] < 50  # not [100, 100]
    assert people_short(card) == f"100.0 [{card['people_low']}, 100.0] n=3"


def test_every_answer_labelled_is_said_exact_not_a_zero_width_interval():
    """An interval of one point ([37.3, 37.3]) reads as a rounding: with every answer labelled nothing is
    estimated, and the scorecard and compare say so."""
    from ragpipe.scoring.compare import compare_line, people_difference
    from ragpipe.scoring.scorecard import calibrated_columns, people_short, people_text

    ids = [f"a{i}" for i in range(10)]
    grades = pd.DataFrame({"answer_id": ids, "kind": "answerable", "verdict": ["correct"] * 6 + ["wrong"] * 4})
    people = pd.Series({i: "Correct Answer" if n < 4 else "Incorrect Answer" for n, i in enumerate(ids)})
    card = {**calibrated_columns(grades, people), "total": 10}
    assert card["people_low"] == card["people_high"] == card["people_pct"] == 40.0
    assert people_short(card) == "40.0 exact, all 10 labelled"
    assert people_text(card) == "40.0 (exact: every answer labelled, 10 labels)"
    a = grades.assign(question_id=ids, answer_id=[f"a-{i}" for i in ids])
    b = grades.assign(question_id=ids, answer_id=[f"b-{i}" for i in ids], verdict="correct")
    labels = pd.Series({**{f"a-{i}": people[i] for i in ids}, **{f"b-{i}": "Correct Answer" for i in ids}})
    said = people_difference(a, b, labels)
    assert said["exact"] and said["people_low"] == said["people_high"] == said["people_diff"] == 0.6
    result = {"a": "A", "b": "B", "n": 10, "wins": 4, "losses": 0, "ties": 6, "a_accuracy": 0.6, "b_accuracy": 1.0,
              "diff": 0.4, "ci_low": 0.1, "ci_high": 0.7, "mcnemar_p": 0.125, "people": said}  # fmt: skip
    line = compare_line(result, "demo")
    assert "by people's labels: B - A +60.0 points (exact: all 10 questions labelled for both)" in line
