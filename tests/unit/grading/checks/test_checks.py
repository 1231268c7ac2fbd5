"""The grader as a pipeline of checks: each one a unit with its id and rules slice, recorded on every
grade, firm or tentative, and switchable one at a time to measure what it earns."""

import json
import pkgutil

import pytest

import ragpipe.grading.checks as checks_package
from ragpipe.corpus.questions import Question
from ragpipe.grading import outcomes
from ragpipe.grading.checks.registry import CHECK_IDS, CHECKS
from ragpipe.grading.grader import grade
from ragpipe.grading.readings.registry import READING_IDS
from ragpipe.grading.rules import Rules
from tests.commands import invoke
from tests.conftest import ROOT


def q(kind="answerable", **kw):
    base = {"id": "q", "text": "What is the amount?", "kind": kind, "golden_docs": ["bill"]}
    return Question(**{**base, **kw})


def test_every_check_module_is_found_once_with_its_rules_slice():
    modules = {m.name for m in pkgutil.iter_modules(checks_package.__path__)}
    assert {c.run.__module__.rsplit(".", 1)[1] for c in CHECKS} == modules - {"view", "registry"}
    assert len(set(CHECK_IDS)) == len(CHECK_IDS)
    assert [c.order for c in CHECKS] == sorted(c.order for c in CHECKS)
    for check in CHECKS:
        for name, model in check.sections.items():
            assert Rules.model_fields[name].annotation is model, check.id


def test_the_order_is_precedence_and_a_negative_question_meets_the_decline_check_alone():
    from ragpipe.grading.checks.registry import checks_for

    assert CHECK_IDS[0] == "decline" and CHECK_IDS[-1] == "citations"
    assert [c.id for c in checks_for("negative")] == ["decline"]
    assert checks_for("answerable") == checks_for("ambiguous") == CHECKS


def test_every_rule_id_a_grade_can_carry_is_declared_by_the_check_that_decides_it(rules):
    declared = {r for c in CHECKS for r in c.rules}
    constants = {v for k, v in vars(outcomes).items() if k.isupper() and isinstance(v, str) and "." in v}
    # not decided by one check: all passed, the prefix of an ambiguous question, an engine error graded apart
    assert constants - declared == {outcomes.CHECKS_PASSED, outcomes.AMBIGUOUS_PREFIX, outcomes.ENGINE_ERROR}
    graded = grade(q(money_key="$44,322"), "You owe $450,658.", [], rules)
    owner = next(c for c in CHECKS if c.id == graded.checks[-1])
    assert graded.rule in owner.rules


def test_no_check_module_is_imported_by_more_than_one_other_module():
    import ast

    users: dict[str, set[str]] = {}
    for path in (ROOT / "ragpipe").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                for name in [node.module] + [f"{node.module}.{a.name}" for a in node.names]:
                    users.setdefault(name, set()).add(str(path.relative_to(ROOT)))
    for check in CHECKS:
        importers = users.get(check.run.__module__, set()) - {"ragpipe/grading/checks/registry.py"}
        assert len(importers) <= 1, (check.id, importers)
        if check.run.__module__.endswith(f".{check.id}") and (ROOT / "ragpipe/grading/checks" / check.id).is_dir():
            # a check that is a package: its modules are its own, imported from inside it alone
            inside = f"ragpipe/grading/checks/{check.id}/"
            for name, files in users.items():
                if name.startswith(check.run.__module__ + "."):
                    assert all(f.startswith(inside) for f in files), (name, files)


def test_each_grade_says_which_checks_fired(rules):
    yes_no = q(text="Did sales grow in 2022?", gold_answer="Yes, sales grew 4%.", polarity="yes")
    mined = [("4%", "percent", "gold_text")]
    g = grade(yes_no, "Yes, sales grew 4% in 2022.", [], rules, mined)
    assert (g.verdict, g.checks) == ("correct", ("polarity", "needles"))
    money = grade(q(money_key="$44,322"), "You owe $450,658.", [], rules)
    assert (money.rule, money.checks) == (outcomes.MONEY_WRONG_FIGURE, ("money_guard",))
    declined = grade(q(money_key="$44,322"), "The documents do not say how much is owed.", [], rules)
    assert declined.checks == ("decline",) and declined.declined


@pytest.mark.parametrize(
    ("question", "answer", "mined", "verdict", "firm"),
    [
        # a recognised decline, a wrong money figure, an opposite yes/no that is said: exact evidence
        (q(money_key="$44,322"), "The documents do not say how much is owed.", [], "wrong", True),
        (q(money_key="$44,322"), "You owe $450,658.", [], "wrong", True),
        (q(text="Did sales grow?", gold_answer="Yes.", polarity="yes"), "No, they fell.", [], "wrong", True),
        # figures met by value
        (q(gold_answer="Sales grew 4%."), "Sales grew 4%.", [("4%", "percent", "gold_text")], "correct", True),
        # a mined word met: the answer may carry it without asserting it
        (
            q(text="Which region grew most?", gold_answer="Northern Plains"),
            "The Gulf Coast grew most; we also report Northern Plains.",
            [("Northern Plains", "answer", "gold_answer")],
            "correct",
            False,
        ),
        # a missing figure: the answer may have said it in a form the reader does not know
        (q(gold_answer="Sales grew 4%."), "Sales grew strongly.", [("4%", "percent", "gold_text")], "wrong", False),
        # no decline recognised, on a question the documents cannot answer
        (q(kind="negative"), "The pet deposit is $300.", [], "wrong", False),
    ],
)
def test_firm_verdicts_rest_on_exact_evidence(rules, question, answer, mined, verdict, firm):
    g = grade(question, answer, [], rules, mined)
    assert (g.verdict, g.exact) == (verdict, firm)


def test_a_yes_no_credited_while_the_golds_figures_go_unchecked_is_tentative(rules):
    """Issue 25, class 1 (invented): the answer's Yes is right, its figure for the measure is not the
    gold's. The polarity credits it (people call it incorrect); the verdict says it is unsure."""
    question = q(
        text="Does the company have positive working capital?",
        gold_answer="Yes. Working capital was positive at $412 million.",
        polarity="yes",
    )
    mined = [("$412 million", "money", "gold_answer_computed")]
    answer = "Yes, it had positive working capital of $1.9 billion (current assets $6.1B less liabilities $4.2B)."
    g = grade(question, answer, [], rules, mined)
    assert (g.verdict, g.exact) == ("correct", False)
    carried = grade(question, "Yes, working capital was $412 million.", [], rules, mined)
    assert (carried.verdict, carried.exact) == ("correct", True)
    plain = grade(question, "Yes, it is positive.", [], rules, [])  # no gold figure to leave unchecked
    assert (plain.verdict, plain.exact) == ("correct", True)


def test_a_decline_that_also_meets_the_key_is_tentative(rules):
    """Issue 40, item 5 (invented): declining and stating the answer at once needs a second look. The
    verdict stays a decline (where people split), only its firmness moves; a decline with the key
    unmet, or met in part, stays firm."""
    question = q(text="How did U.S. sales change in 2022?", gold_answer="U.S. sales rose 3.0%.")
    mined = [("3.0%", "percent", "gold_text")]
    both = grade(question, "The filing does not provide a breakdown. Overall, U.S. sales rose 3.0%.", [], rules, mined)
    assert (both.verdict, both.declined, both.exact) == ("wrong", True, False)
    plain = grade(question, "The filing does not provide a breakdown of U.S. sales.", [], rules, mined)
    assert (plain.verdict, plain.declined, plain.exact) == ("wrong", True, True)
    wrong = grade(question, "The filing does not provide a breakdown. Overall, U.S. sales rose 7.5%.", [], rules, mined)
    assert (wrong.verdict, wrong.declined, wrong.exact) == ("wrong", True, True)
    two = q(text="How did sales change?", gold_answer="U.S. sales rose 3.0%; abroad they fell 0.6%.")
    some = [("3.0%", "percent", "gold_text"), ("0.6%", "percent", "gold_text")]
    part = grade(two, "The filing does not provide a breakdown. U.S. sales rose 3.0%.", [], rules, some)
    assert (part.declined, part.exact) == (True, True)
    # the key met inside the decline's own sentence is the question's topic, not an answer
    topic = q(text="What does the dataset contribute?", gold_answer="By providing diverse tasks and solutions.")
    words = [("providing", "term", "gold_answer"), ("solutions", "term", "gold_answer")]
    said = "I could not find this in the provided documents. The dataset is large."
    assert grade(topic, said, [], rules, words, frozenset({"decline"})).verdict == "correct"  # "provided" meets it
    aside = grade(topic, said, [], rules, words)
    assert (aside.declined, aside.exact) == (True, True)
    # a question the documents cannot answer has no key to meet: its decline stays firm
    negative = grade(
        q(kind="negative"), "I could not find this in the documents. The lease runs twelve months.", [], rules
    )
    assert (negative.verdict, negative.exact) == ("correct", True)


def test_implied_yes_no_is_tentative_and_stated_one_firm(rules):
    question = q(
        text="Does Amcor have an improving gross margin profile?",
        gold_answer="No, the gross margin profile is declining.",
        polarity="no",
    )
    implied = grade(question, "Amcor has an improving gross margin profile.", [], rules)
    stated = grade(question, "Yes, it is improving.", [], rules)
    assert (implied.rule, implied.exact) == (outcomes.POLARITY_WRONG, False)
    assert (stated.rule, stated.exact) == (outcomes.POLARITY_WRONG, True)


def test_a_check_switched_off_finds_nothing(rules):
    question = q(money_key="$44,322")
    answer = "You owe $450,658."
    assert grade(question, answer, [], rules).rule == outcomes.MONEY_WRONG_FIGURE
    off = grade(question, answer, [], rules, off=frozenset({"money_guard"}))
    assert off.rule == "needles.authored.none" and "money_guard" not in off.checks
    negative = q(kind="negative")
    decline = "The lease does not say anything about a pet deposit."
    assert grade(negative, decline, [], rules).verdict == "correct"
    assert grade(negative, decline, [], rules, off=frozenset({"decline"})).verdict == "wrong"


def test_firmness_and_checks_are_stored_with_each_grade(rules):
    import pandas as pd

    from ragpipe.corpus.questions import questions_frame
    from ragpipe.grading.grade_table import grade_answers

    questions = questions_frame("c", [q(gold_answer="$44,322", money_key="$44,322")])
    answers = pd.DataFrame(
        [{"corpus": "c", "config": "k", "answer_set": "s", "question_id": "q", "answer_id": "a",
          "answer": "You owe $450,658.", "citations": [], "error": None}]
    )  # fmt: skip
    needles = pd.DataFrame(columns=["question_id", "needle", "kind", "source", "status"])
    row = grade_answers(answers, questions, needles, rules).iloc[0]
    assert (bool(row["firm"]), row["checks"], row["rule"]) == (True, "money_guard", outcomes.MONEY_WRONG_FIGURE)


def test_agreement_ablate_reports_what_each_check_earns():
    """`agreement --ablate --json` on the generic example: one row per check; its changed answers split
    into those it moves to the people's class (earned), away from it (cost), and neither."""
    result = invoke("agreement", "--labels", str(ROOT / "tests/data/labelled-answers.jsonl"), "--ablate", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    rows = {r["check"]: r for r in report["ablation"]}
    assert list(rows) == [*CHECK_IDS, *sorted(READING_IDS)]  # the checks, then the readings
    assert {r["what"] for r in rows.values()} == {"check", "reading"}
    assert all((r["fired"] is None) == (r["what"] == "reading") for r in rows.values())
    assert rows["decline"]["earned"] >= 3  # three declines labelled refusal would be missed without it
    assert rows["money_guard"]["fired"] == 1 and rows["money_guard"]["changed"] == 0  # the key missing decides too
    for r in rows.values():
        assert r["earned"] + r["cost"] <= r["changed"] <= report["n"]
    assert {"firm", "tentative"} <= set(report["by_firmness"])
    assert sum(v["n"] for v in report["by_firmness"].values()) == report["n"]
    # firmness within each file: the files' firm and tentative answers add up to the overall split
    within = report["by_file_firmness"]
    assert set(within) == set(report["by_file"])
    for firmness, overall in report["by_firmness"].items():
        assert sum(f.get(firmness, {"n": 0})["n"] for f in within.values()) == overall["n"]
    markdown = invoke(
        "agreement", "--labels", str(ROOT / "tests/data/labelled-answers.jsonl"), "--ablate", "--markdown"
    )
    table = [line for line in markdown.stdout.splitlines() if line.startswith("| `")]
    assert [line.split("`")[1] for line in table] == [*CHECK_IDS, *sorted(READING_IDS)]


def test_a_check_whose_needs_fail_is_skipped_not_run(rules):
    from ragpipe.grading.checks.view import Check
    from ragpipe.grading.grader import answer_view

    def never(view, found):
        raise AssertionError("a check that cannot apply is not run")

    keyed = Check("keyed", never, "needs a money key", order=99, needs=("money_question", "money_key"))
    assert not keyed.applies(answer_view(q(), "It is $5.", [], rules))  # no key: skipped
    assert keyed.applies(answer_view(q(money_key="$5"), "It is $5.", [], rules))
    assert not keyed.applies(answer_view(q(kind="negative", money_key="$5"), "It is $5.", [], rules))  # its kinds
    with pytest.raises(TypeError, match="unknown needs"):
        Check("typo", never, "", order=98, needs=("money_kye",))
    needs = {c.id: c.needs for c in CHECKS}
    assert needs["money_guard"] == ("money_question", "money_key") and needs["polarity"] == ("yes_no",)


def test_decline_phrases_in_an_answer_that_answers_are_evidence_not_a_finding(rules):
    """Decline detection is the decline check's: an answer that did not decline hands its decline phrases to
    the checks after (a yes/no "restated" inside a decline is no answer) without being listed as a finding."""
    quick = q(text="Does Verizon have a healthy quick ratio for FY 2022?", polarity="no", must_contain=["1.2"])
    said = (
        "There is no direct information on whether Verizon has a healthy quick ratio for FY 2022. "
        "However, its quick ratio was 1.2."
    )
    g = grade(quick, said, [], rules)
    assert not g.declined and "decline" not in g.checks and g.checks == ("needles",)
    assert "polarity" not in g.checks  # the restated question sits inside a decline: no yes/no read from it
    assert grade(quick, "Verizon does not have a healthy quick ratio for FY 2022: it is 1.2.", [], rules).checks == (
        "polarity",
        "needles",
    )
