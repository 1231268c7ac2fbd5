"""The model judge: one more check, asked only where the rules are unsure, its verdicts stored as data.

The walk of one judgment: the rules grade every answer (grading/grader.py); the answers whose rule-based
verdict is tentative (or all, `judge_on="all"`) are the judge's (`apply.eligible`); what the judge sees
of each (kind, question, gold, answer) is hashed into its input key (`record.input_key`); a judgment
already stored for that key and the judge's identity (`config.JudgeIdentity`) is reused, a missing one
is asked (`ask.py`, any OpenAI-compatible endpoint) or imported (`batch.py`); `apply.apply_judgments`
then lets each judgment decide its grade as the rules' own findings do, keeping the rule-based verdict
beside it. The judge's identity is part of the grader version (`config.judged_rules`).
"""
