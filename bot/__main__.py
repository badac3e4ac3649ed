"""`python -m bot`: run the Discord bot."""

from __future__ import annotations

import sys


def main() -> int:
    print(
        "The Kamiza bot is not ready yet: the rules engine exists, the Discord client does not.",
        file=sys.stderr,
    )
    return 2


if __name__ == "__main__":
    sys.exit(main())
