"""No import circles in the product (DESIGN.md "Conventions"): among the modules of bot/, rules/
and data/, the imports made when a module is loaded -- those for type checking included, which
tie the modules together just the same for a reader -- never lead back to where they started.

Imports inside functions are left out: deferring one is how a module names another that is
loaded later (a game's `spec` and its Discord modules), which is no circle at load time.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "rules", "data")

# One class written in three modules, that type-check against each other: `KobayakawaState`
# calls its once-a-round steps in `kobayakawa_round` and its per-turn steps in `kobayakawa_turns`
# (shared by `apply` and `playout`), which take the state they change. The step modules load the
# state's module for nothing but its type.
ONE_CLASS_IN_MODULES = {
    frozenset({"rules.kobayakawa_round", "rules.kobayakawa_state", "rules.kobayakawa_turns"}),
    # ...and its steps of choices made at once (RULES.md H-2) in `kobayakawa_together`
    frozenset(
        {
            "rules.kobayakawa_round",
            "rules.kobayakawa_state",
            "rules.kobayakawa_together",
            "rules.kobayakawa_turns",
        }
    ),
}


def module_names() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def top_level_imports(tree: ast.Module, name: str, is_package: bool) -> Iterator[str]:
    """Every module named by an import that runs (or is type-checked) when the module loads."""

    def walk(body: list[ast.stmt]) -> Iterator[str]:
        for node in body:
            if isinstance(node, ast.Import):
                yield from (alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parent = name.split(".")[: len(name.split(".")) - node.level + is_package]
                    base = ".".join([*parent, *([node.module] if node.module else [])])
                yield base
                yield from (f"{base}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.If | ast.Try):
                yield from walk(node.body)
                yield from walk(node.orelse)
                for handler in getattr(node, "handlers", []):
                    yield from walk(handler.body)

    yield from walk(tree.body)


def import_graph() -> dict[str, set[str]]:
    modules = module_names()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        targets = set()
        for imported in top_level_imports(tree, name, path.name == "__init__.py"):
            while imported and imported not in modules:  # `from a.b import c`: c may be a name
                imported = imported.rpartition(".")[0]
            if imported and imported != name:
                targets.add(imported)
        graph[name] = targets
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def test_no_module_of_bot_rules_or_data_imports_itself_round_a_circle() -> None:
    found = [c for c in circles(import_graph()) if frozenset(c) not in ONE_CLASS_IN_MODULES]
    assert found == []


def test_the_check_sees_a_circle_and_an_import_under_type_checking() -> None:
    source = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bot.b import B\n"
    tree = ast.parse(source)
    assert "bot.b" in set(top_level_imports(tree, "bot.a", False))
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert import_graph()["bot.runtime.presenter"] >= {"bot.runtime.table", "bot.runtime.lobby"}
