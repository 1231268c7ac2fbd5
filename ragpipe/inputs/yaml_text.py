"""YAML read with a bound on what its aliases expand to.

An alias names a node already written, so a few hundred bytes of nested aliases ("a billion laughs")
stand for billions of nodes: PyYAML builds them shared, and the first walk over them (validating
strings, checking fields) never ends, or takes all the memory. Every YAML file the project reads
(rules, manifests, questions, configurations) is composed first and its expanded size counted, each
node once (a shared node's count is remembered), before anything is built: past `MAX_NODES` nodes, or
with an alias that contains itself, the file is refused as invalid YAML, naming it through the caller's
usual error. libyaml's safe loader where PyYAML has it (its wheels do): the same data, 12x faster than the
pure-Python one, which every step of a run paid for (rules are read by each asset that grades or reports).
"""

from __future__ import annotations

from typing import Any

import yaml

MAX_NODES = 1_000_000  # the project's largest YAML (rules.yaml) is about 3,000
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class YamlTooLarge(yaml.YAMLError):
    """A YAML document whose aliases expand past the bound, or into themselves."""

    def __init__(self, problem: str):
        super().__init__(problem)
        self.problem = problem


def load_yaml(text: str) -> Any:
    """The data of the YAML document `text` (None for an empty one); YamlTooLarge when its aliases
    expand past MAX_NODES nodes or contain themselves."""
    loader = _LOADER(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _expanded(node, {}, set())
        return loader.construct_document(node)
    finally:
        loader.dispose()


def _expanded(node: yaml.Node, sizes: dict[int, int], open_: set[int]) -> int:
    key = id(node)
    if key in sizes:
        return sizes[key]
    if key in open_:
        raise YamlTooLarge("an alias refers to a node that contains it")
    open_.add(key)
    if isinstance(node, yaml.SequenceNode):
        size = 1 + sum(_expanded(child, sizes, open_) for child in node.value)
    elif isinstance(node, yaml.MappingNode):
        size = 1 + sum(_expanded(k, sizes, open_) + _expanded(v, sizes, open_) for k, v in node.value)
    else:
        size = 1
    open_.discard(key)
    if size > MAX_NODES:
        raise YamlTooLarge(f"its aliases expand past {MAX_NODES:,} nodes")
    sizes[key] = size
    return size
