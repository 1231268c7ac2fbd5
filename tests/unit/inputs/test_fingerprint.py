"""One way to fingerprint what a verdict, a label or a judgment was computed from, with the bytes it
always had: fingerprints stored before still match."""

import hashlib

from ragpipe.corpus.questions import Question
from ragpipe.inputs.fingerprint import answer_sha, digest, judge_input_key, seen_sha
from ragpipe.judge.judgment import gold_for_judge, input_key


def _sha(text: str, n: int) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:n]


def test_each_fingerprint_is_the_sha256_of_its_parts_joined_by_nul():
    assert digest("a", "b") == _sha("a\0b", 16)
    assert answer_sha("The deposit is $300.", ["c1", "c2"]) == _sha("The deposit is $300.\0c1\0c2", 16)
    assert answer_sha(None, None) == _sha("\0", 16)
    assert seen_sha("Q?", "$300", "A.", ["c1"]) == _sha("Q?\0$300\0A.\0c1", 16)
    assert judge_input_key("negative", "Q?", "$300", "A.") == _sha("negative\0Q?\0$300\0A.", 20)


def test_the_judge_keys_what_it_saw_through_the_one_fingerprint():
    question = Question(id="q", text="What is the pet deposit?", gold_answer="$300", kind="answerable")
    expected = _sha("\0".join(("answerable", question.text, gold_for_judge(question), "It is $300.")), 20)
    assert input_key(question, "It is $300.") == expected
