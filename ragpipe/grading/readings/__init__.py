"""The readings: what the checks see of an answer, each a unit that can be switched off and measured.

A check decides; a reading shapes what the checks read (the encoding repaired, the sources' voice set
apart, hedges left unasserted, the measure each figure is stated as, the slot a question opens, whether
it asks for a reason, a figure's unit). Each is one module declaring `READING` (readings/unit.py), found
like a check (readings/registry.py), with its own typed slice of rules.yaml where it carries judgement;
`agreement --ablate` grades with each switched off. readings/shared.py holds what several checks read
once an answer and one check makes (the decline reading, the yes/no, the key given).
"""
