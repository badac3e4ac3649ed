"""Groundwork for messages laid out with Discord's Components V2 (`discord.ui.LayoutView`).

`limits.check` refuses a layout Discord would refuse, naming every broken limit; `text.as_text`
renders what a screen reader would read; `fold` is the defined way a layout that would not fit
gives way (lines folded into "… and N more"). Presenters build on these (issue #25).
"""

from bot.layout.fold import budget_left, fit_lines
from bot.layout.limits import LayoutTooLarge, check, problems
from bot.layout.text import as_text

__all__ = ["LayoutTooLarge", "as_text", "budget_left", "check", "fit_lines", "problems"]
