"""Every rule id of RULES.md has a test that names it: a test function `test_<id>_…` (K-8 is
`test_k8_…`, `test_k3_k4_…` names two), so that a rule added to RULES.md without a test, or a test
renamed away from its rule, shows here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
RULES = TESTS.parent.parent / "shared" / "RULES.md"


def rule_ids() -> list[str]:
    return sorted(set(re.findall(r"^- ([A-Z]-\d+)\b", RULES.read_text(encoding="utf-8"), re.M)))


def all_test_names() -> list[str]:
    names: list[str] = []
    for path in TESTS.rglob("test_*.py"):
        names += re.findall(r"def (test_\w+)", path.read_text(encoding="utf-8"))
    return names


@pytest.mark.skipif(not RULES.exists(), reason="../shared/RULES.md is not beside the project")
def test_every_rule_id_of_rules_md_has_a_test_named_after_it() -> None:
    ids = rule_ids()
    assert len(ids) >= 30  # K-, B-, R-, G- and H- rules: the file was read
    names = [name.removeprefix("test_") for name in all_test_names()]
    untested = []
    for rule in ids:
        letter, number = rule.lower().split("-")
        named = re.compile(rf"(?:^|_){letter}{number}(?:_|$)")
        if not any(named.search(name) for name in names):
            untested.append(rule)
    assert untested == [], f"rule ids of RULES.md without a test named after them: {untested}"
