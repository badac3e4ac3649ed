"""The presenters' unit tests check what each edit of a message says, one edit per call: their
edits are not paced here (`bot.tables.edit_pacing`, tested with its own intervals in
`test_edit_pacing.py`)."""

from __future__ import annotations

import pytest

from bot.tables import edit_pacing


@pytest.fixture(autouse=True)
def edits_not_paced(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(edit_pacing, "INTERVAL", 0.0)
