"""Build the CJK font the pictures draw with: a subset of Noto Sans CJK JP Regular (SIL Open Font
License 1.1), small enough to ship in the package.

Kept: ASCII and Latin-1 and Latin Extended-A (names such as "Chō"), punctuation, arrows, circled
numbers and other symbols the pictures use, kana, full-width forms, every character of JIS X 0208
(its symbol rows and level-1 kanji: the common kanji of Japanese names) and every non-ASCII
character of the project's own texts (bot/, rules/, docs/, README.md).

Needs fontTools (`pip install fonttools`, a tool for this script only) and the font from Debian's
`fonts-noto-cjk`. Run from the repository root:

    python tools/subset_font.py [/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc]
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset

SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
JAPANESE = 0  # the font's index in the collection: Noto Sans CJK JP
TARGET = Path("bot/assets/fonts/NotoSansCJKjp-Regular-subset.otf")
TEXTS = ("bot", "rules", "docs", "README.md")
RANGES = (
    (0x20, 0x7E),  # ASCII
    (0xA0, 0x17F),  # Latin-1 and Latin Extended-A
    (0x2010, 0x206F),  # general punctuation
    (0x2190, 0x21FF),  # arrows
    (0x2460, 0x24FF),  # circled numbers: the seat marks
    (0x25A0, 0x25FF),  # geometric shapes
    (0x2600, 0x26FF),  # miscellaneous symbols
    (0x3000, 0x30FF),  # CJK punctuation, hiragana, katakana
    (0xFF00, 0xFFEF),  # full-width and half-width forms
)


def jis_x_0208() -> set[str]:
    """The symbol rows (1-8) and level-1 kanji (rows 16-47) of JIS X 0208, through EUC-JP."""
    kept = set()
    for row in [*range(1, 9), *range(16, 48)]:
        for cell in range(1, 95):
            try:
                kept.add(bytes((0xA0 + row, 0xA0 + cell)).decode("euc_jp"))
            except UnicodeDecodeError:
                continue
    return kept


def project_characters(root: Path) -> set[str]:
    found: set[str] = set()
    for name in TEXTS:
        path = root / name
        files = [path] if path.is_file() else path.rglob("*")
        for file in files:
            if file.suffix in {".py", ".json", ".md"}:
                found |= {ch for ch in file.read_text(encoding="utf-8") if ord(ch) > 0x7E}
    return found


def main() -> None:
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else SOURCE
    characters = jis_x_0208() | project_characters(Path("."))
    for first, last in RANGES:
        characters |= {chr(code) for code in range(first, last + 1)}
    options = subset.Options()
    options.font_number = JAPANESE
    options.hinting = False
    options.name_IDs = ["*"]  # keep the copyright and licence records
    options.notdef_outline = True
    font = subset.load_font(str(source), options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(ord(ch) for ch in characters))
    subsetter.subset(font)
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    subset.save_font(font, str(TARGET), options)
    print(f"{TARGET}: {len(characters)} characters, {TARGET.stat().st_size} bytes")


if __name__ == "__main__":
    main()
