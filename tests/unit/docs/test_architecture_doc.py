"""docs/architecture.md's layout is checked against the tree, so it cannot go stale silently: every
package of ragpipe/ (nested ones too) is named as a folder and every module in it by name, and every
folder and module of assets/; a name the layout gives that the tree no longer has fails as well. Its
walk of a grading is checked against the definitions' lineage."""

import re

from tests.conftest import ROOT


def _layout() -> str:
    text = (ROOT / "docs" / "architecture.md").read_text()
    return re.search(r"## Layout\n.*?```\n(.*?)```", text, re.S).group(1)


def test_the_layout_names_every_subpackage_and_every_module_of_the_library():
    layout = _layout()
    missing = []
    for package in sorted(p for p in (ROOT / "ragpipe").iterdir() if (p / "__init__.py").exists()):
        if not re.search(rf"^\s+{package.name}/", layout, re.M):
            missing.append(f"{package.name}/")
        for nested in sorted(p.parent for p in package.rglob("*/__init__.py")):
            if not re.search(rf"\b{nested.name}/", layout):
                missing.append(f"{nested.relative_to(ROOT / 'ragpipe')}/")
        for module in sorted(package.rglob("*.py")):
            if module.name != "__init__.py" and not re.search(rf"\b{re.escape(module.stem)}\b", layout):
                missing.append(str(module.relative_to(ROOT / "ragpipe")))
    assert missing == [], "docs/architecture.md's layout does not name these"


def test_the_layout_names_every_folder_and_module_of_the_dagster_layer():
    layout = _layout()
    folders = [p for p in sorted((ROOT / "assets").iterdir()) if (p / "__init__.py").exists()]
    assert [p.name for p in folders if not re.search(rf"^  {p.name}/ ", layout, re.M)] == []
    modules = [p for p in sorted((ROOT / "assets").rglob("*.py")) if p.name not in ("__init__.py", "definitions.py")]
    assert [str(p) for p in modules if not re.search(rf"\b{re.escape(p.stem)}\b", layout)] == []
    # and nothing named there that is gone: each folder line under assets/ is a folder of the tree
    listed = re.findall(r"^  (\w+)/ ", layout[layout.index("assets/ ") : layout.index("bench/ ")], re.M)
    assert sorted(listed) == sorted(p.name for p in folders)


def test_the_walk_of_a_grading_is_the_definitions_lineage():
    from dagster import AssetKey

    from assets.definitions import built

    defs = built()

    text = (ROOT / "docs" / "architecture.md").read_text()
    walk = re.search(r"## The walk of a grading\n.*?\n    (\w+(?: -> \w+)+)\n", text, re.S).group(1).split(" -> ")
    graph = defs.resolve_asset_graph()
    assert len(walk) >= 5
    for before, after in zip(walk, walk[1:]):
        assert AssetKey(before) in graph.get(AssetKey(after)).parent_keys, f"{before} -> {after}"
    # and grades never grade: they read no needles (what grading is computed from)
    assert AssetKey("needles") not in graph.get(AssetKey("grades")).parent_keys
