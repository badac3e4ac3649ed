"""bot.layout: Discord's Components V2 limits, the screen-reader text and the folding of lists.

Every limit is checked twice: by `bot.layout.limits` and by the fake Discord's own checker, and
the two must agree, so the bot's guarantee and the test server's refusal cannot drift apart.
"""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest
from discord import ui
from fakediscord.components_v2 import check_layout
from fakediscord.server import validate_components
from fakediscord.state import ApiError
from hypothesis import event, given, settings
from hypothesis import strategies as st

from bot.layout import LayoutTooLarge, as_text, budget_left, check, fit_lines, problems
from bot.layout.payload import walk

Payload = list[dict[str, Any]]


def fake_refuses(components: Payload) -> bool:
    try:
        validate_components(components, True)
        check_layout(components, True)
    except ApiError:
        return True
    return False


def text(n: int, fill: str = "x") -> dict[str, Any]:
    return {"type": 10, "content": fill * n}


def button(custom_id: str, label: str = "Go") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def select(custom_id: str) -> dict[str, Any]:
    return {"type": 3, "custom_id": custom_id, "options": [{"label": "a", "value": "a"}]}


def section(texts: int, accessory: dict[str, Any] | None) -> dict[str, Any]:
    body: dict[str, Any] = {"type": 9, "components": [text(5) for _ in range(texts)]}
    if accessory is not None:
        body["accessory"] = accessory
    return body


def gallery(items: int) -> dict[str, Any]:
    item = {"media": {"url": "https://example.com/a.png"}, "description": "a board"}
    return {"type": 12, "items": [dict(item) for _ in range(items)]}


def row(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(items)}


def container(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": 17, "components": list(items)}


def refused(components: Payload, reason: str) -> None:
    """Both checkers refuse the payload, and ours says why."""
    reasons = problems(components)
    assert any(reason in r for r in reasons), reasons
    assert fake_refuses(components)


def accepted(components: Payload) -> None:
    assert problems(components) == []
    assert not fake_refuses(components)


# --- the 40 components -------------------------------------------------------------------------


def forty_with_sections() -> Payload:
    """A container (1) of 13 sections of one text and a button (3 each): 40 components."""
    seats = [section(1, button(f"seat:{i}")) for i in range(13)]
    return [container(*seats)]


def test_forty_components_exactly_are_accepted() -> None:
    components = forty_with_sections()
    assert len(list(walk(components))) == 40
    accepted(components)


def test_a_forty_first_component_is_refused_counting_accessories() -> None:
    components = forty_with_sections()
    components[0]["components"].append({"type": 14})
    refused(components, "41 components, at most 40")


def test_the_count_matches_discord_py_total_children_count() -> None:
    view = sample_table()
    assert len(list(walk(view.to_components()))) == view.total_children_count


def test_a_legal_view_built_with_discord_py_at_forty_passes_check() -> None:
    view = ui.LayoutView()
    box = ui.Container[ui.LayoutView]()
    for i in range(13):
        box.add_item(ui.Section(f"seat {i}", accessory=ui.Button(label="Kick", custom_id=f"k{i}")))
    view.add_item(box)
    assert view.total_children_count == 40
    check(view)


# --- 4,000 characters --------------------------------------------------------------------------


def test_four_thousand_characters_exactly_are_accepted() -> None:
    accepted([text(2995), container(text(1000), section(1, button("a")))])
    accepted([text(3995), section(1, button("a"))])


def test_one_character_more_is_refused_and_check_names_it() -> None:
    refused([text(3996), section(1, button("a"))], "4001 characters of text, at most 4000")
    view = ui.LayoutView()
    view.add_item(ui.TextDisplay("y" * 4001))
    with pytest.raises(LayoutTooLarge, match="4001 characters of text"):
        check(view)


def test_budget_left_counts_every_text_display_nested_or_not() -> None:
    view = sample_table()
    shown = sum(len(c["content"]) for c in walk(view.to_components()) if c["type"] == 10)
    assert budget_left(view) == 4000 - shown
    view.add_item(ui.TextDisplay("z" * budget_left(view)))
    assert budget_left(view) == 0
    check(view)


# --- sections, galleries, rows, custom ids -----------------------------------------------------


@pytest.mark.parametrize("texts", [1, 3])
def test_a_section_of_one_to_three_texts_with_an_accessory_is_accepted(texts: int) -> None:
    thumbnail = {"type": 11, "media": {"url": "https://example.com/me.png"}}
    accepted([section(texts, button("s")), section(texts, thumbnail)])


@pytest.mark.parametrize("texts", [0, 4])
def test_a_section_of_zero_or_four_texts_is_refused(texts: int) -> None:
    refused([section(texts, button("s"))], f"section of {texts} text displays, 1 to 3")


def test_a_section_without_its_accessory_is_refused() -> None:
    refused([section(1, None)], "section without its accessory")


@pytest.mark.parametrize("items", [1, 10])
def test_galleries_of_one_to_ten_items_are_accepted(items: int) -> None:
    accepted([gallery(items)])


@pytest.mark.parametrize("items", [0, 11])
def test_galleries_of_zero_or_eleven_items_are_refused(items: int) -> None:
    refused([gallery(items)], f"media gallery of {items} items, 1 to 10")


def test_five_buttons_or_one_select_per_row_are_accepted() -> None:
    accepted([row(*(button(f"b{i}") for i in range(5))), row(select("pick"))])


def test_six_buttons_in_a_row_are_refused() -> None:
    refused([row(*(button(f"b{i}") for i in range(6)))], "action row of 6 buttons, at most 5")


def test_a_select_sharing_its_row_is_refused() -> None:
    refused([row(select("pick"), button("b"))], "action row with a select and 1 other")


def test_custom_ids_of_a_hundred_characters_are_accepted_and_longer_refused() -> None:
    accepted([row(button("c" * 100))])
    refused([row(button("c" * 101))], "101 characters, 1 to 100")


def test_a_custom_id_used_twice_is_refused_even_in_different_places() -> None:
    refused([section(1, button("same")), row(button("same"))], "custom id 'same' used twice")


def test_an_empty_text_display_and_a_numeric_id_used_twice_are_refused() -> None:
    refused([text(0)], "empty text display")
    refused([{**text(3), "id": 7}, {"type": 14, "id": 7}], "component id 7 used twice")
    view = ui.LayoutView()
    view.add_item(ui.TextDisplay("a", id=7)).add_item(ui.Separator(id=7))
    with pytest.raises(LayoutTooLarge, match="component id 7 used twice"):
        check(view)


def test_every_broken_limit_is_named_at_once() -> None:
    components = [text(4001), gallery(0), row(*(button(f"b{i}") for i in range(6)))]
    reasons = problems(components)
    assert len(reasons) == 3, reasons
    view = ui.LayoutView()
    view.add_item(ui.TextDisplay("y" * 4001))
    twins = ui.Button[ui.LayoutView](label="a", custom_id="d"), ui.Button(label="b", custom_id="d")
    view.add_item(ui.ActionRow(*twins))
    with pytest.raises(LayoutTooLarge) as raised:
        check(view)
    assert len(raised.value.reasons) == 2, raised.value.reasons


# --- both checkers agree on random layouts -----------------------------------------------------

# Mostly legal parts (fresh custom ids, 1 to 3 texts, 1 to 10 items) with the odd broken one, so
# that layouts near each limit, and past exactly one of them, are common.
fresh_ids = st.uuids().map(lambda u: u.hex)
custom_ids = st.one_of(
    fresh_ids, fresh_ids, fresh_ids, st.sampled_from(["kick", "p" * 100, "q" * 101])
)
buttons = st.builds(button, custom_ids)
thumbnail = {"type": 11, "media": {"url": "https://example.com/t.png"}}
accessories = st.one_of(buttons, buttons, st.just(thumbnail), st.none())
section_texts = st.one_of(st.integers(1, 3), st.integers(1, 3), st.integers(0, 4))
gallery_items = st.one_of(st.integers(1, 10), st.integers(1, 10), st.integers(0, 11))
texts = st.one_of(st.integers(1, 300), st.integers(500, 2500)).map(text)
inner = st.one_of(
    texts,
    st.builds(section, section_texts, accessories),
    gallery_items.map(gallery),
    st.just({"type": 14}),
    st.lists(buttons, min_size=0, max_size=6).map(lambda bs: row(*bs)),
    st.builds(lambda cid, bs: row(select(cid), *bs), custom_ids, st.lists(buttons, max_size=1)),
)
top = st.one_of(inner, st.lists(inner, min_size=0, max_size=14).map(lambda cs: container(*cs)))


@settings(max_examples=300, deadline=None)
@given(st.lists(top, min_size=1, max_size=6))
def test_limits_and_the_fake_discord_agree_on_random_layouts(components: Payload) -> None:
    reasons = problems(components)
    event("refused" if reasons else "accepted")
    for reason in reasons:  # which limits the examples reached (--hypothesis-show-statistics)
        event(re.sub(r"\d+", "N", reason)[:40])
    assert bool(reasons) == fake_refuses(components), reasons


@given(st.integers(1, 20), st.integers(0, 5))
def test_both_checkers_refuse_a_table_of_seats_from_the_forty_first_component(
    seats: int, separators: int
) -> None:
    components = [
        container(
            *(section(1, button(f"seat:{i}")) for i in range(seats)),
            *({"type": 14} for _ in range(separators)),
        )
    ]
    over = 1 + 3 * seats + separators > 40
    assert bool(problems(components)) == fake_refuses(components) == over


# --- the text a screen reader reads ------------------------------------------------------------


def sample_table() -> ui.LayoutView:
    view = ui.LayoutView()
    seats = [
        ui.Section("**Aiko** — to play", accessory=ui.Button(label="Kick", custom_id="kick:1")),
        ui.Section(
            "**Ben** — has played",
            accessory=ui.Thumbnail("https://example.com/ben.png", description="Ben's card"),
        ),
        ui.Section(
            "**Computer** — level 2",
            accessory=ui.Button(label="Kick", custom_id="kick:3", disabled=True),
        ),
    ]
    board = ui.MediaGallery[ui.LayoutView](
        discord.MediaGalleryItem("https://example.com/board.png", description="the board, round 3")
    )
    hand = ui.ActionRow[ui.LayoutView](
        ui.Button(label="Play 7", custom_id="play:7"), ui.Button(label="Pass", custom_id="pass")
    )
    view.add_item(
        ui.Container(
            ui.TextDisplay("## Kobayakawa — round 3"),
            *seats,
            ui.Separator(),
            board,
            ui.TextDisplay("Round 1: Aiko\nRound 2: Ben"),
            accent_colour=0x2E86AB,
        )
    )
    view.add_item(hand)
    return view


def test_as_text_reads_a_table_in_order() -> None:
    assert as_text(sample_table()) == "\n".join(
        [
            "## Kobayakawa — round 3",
            "**Aiko** — to play [Kick]",
            "**Ben** — has played [image: Ben's card]",
            "**Computer** — level 2 [Kick] (disabled)",
            "———",
            "[image: the board, round 3]",
            "Round 1: Aiko",
            "Round 2: Ben",
            "[Play 7] [Pass]",
        ]
    )


def test_the_sample_table_fits() -> None:
    check(sample_table())


# --- folding -----------------------------------------------------------------------------------


def test_fit_lines_keeps_everything_that_fits() -> None:
    assert fit_lines(["ab", "cd"], 5) == ["ab", "cd"]


def test_fit_lines_folds_the_rest_into_one_line_within_the_budget() -> None:
    lines = [f"round {i}" for i in range(1, 101)]
    folded = fit_lines(lines, 100)
    assert len("\n".join(folded)) <= 100
    assert folded[-1] == f"… and {100 - (len(folded) - 1)} more"
    assert folded[:-1] == lines[: len(folded) - 1]
    kept = len(folded) - 1
    one_more = [*lines[: kept + 1], f"… and {100 - kept - 1} more"]
    assert len("\n".join(one_more)) > 100


def test_fit_lines_speaks_japanese() -> None:
    assert fit_lines(["aaaa"] * 10, 20, "ja") == ["aaaa", "aaaa", "aaaa", "…ほか7件"]


def test_fit_lines_gives_nothing_when_not_even_the_fold_fits() -> None:
    assert fit_lines(["a long line"] * 3, 5) == []


@given(st.lists(st.text(max_size=30), max_size=60), st.integers(0, 600))
def test_fit_lines_keeps_the_most_first_lines_that_fit(lines: list[str], budget: int) -> None:
    folded = fit_lines(lines, budget)
    assert len("\n".join(folded)) <= budget
    if folded and folded != lines:
        kept = len(folded) - 1
        assert folded[:kept] == lines[:kept]
        assert folded[-1] == f"… and {len(lines) - kept} more"
        one_more = [*lines[: kept + 1], f"… and {len(lines) - kept - 1} more"]
        assert kept == len(lines) or len("\n".join(one_more)) > budget
    if not folded and lines:
        assert len(f"… and {len(lines)} more") > budget
