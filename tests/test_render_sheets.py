"""Imposition maths: cards per page, grid placement, crop marks outside the cards, mirrored backs."""

from __future__ import annotations

import pytest

from cardtool.errors import UsageError
from cardtool.render.sheets import (CARD_SIZES, MARK_GAP, MARK_LENGTH, PAPERS, SAFE_MARGIN, SheetSpec, layout,
                                    parse_card_size, parse_length, parse_offset)


def test_lengths_accept_mm_inches_and_fractions():
    assert parse_length("3mm") == 3
    assert parse_length("3") == 3
    assert parse_length("1/8in") == pytest.approx(3.175)
    assert parse_length("0.125in") == pytest.approx(3.175)
    assert parse_offset("0.5,-1") == (0.5, -1.0)
    with pytest.raises(UsageError, match="not a length"):
        parse_length("three")


def test_card_sizes_presets_and_custom():
    assert parse_card_size("poker").width == 63.5
    custom = parse_card_size("2.5x3.5in")
    assert (custom.width, custom.height) == pytest.approx((63.5, 88.9))
    with pytest.raises(UsageError, match="did you mean 'poker'"):
        parse_card_size("pokr")


@pytest.mark.parametrize("paper, card, bleed, expected", [
    ("a4", "poker", 3.0, (4, 2, "landscape")),
    ("a4", "poker", 0.0, (3, 3, "portrait")),
    ("letter", "poker", 3.0, (3, 2, "landscape")),
    ("letter", "poker", 0.0, (4, 2, "landscape")),
    ("a4", "mini", 3.0, (3, 4, "portrait")),  # 12: a 3 mm printer margin leaves room for a fourth row
    ("a4", "tarot", 3.0, (2, 2, "portrait")),
])
def test_cards_per_page_from_paper_and_card(paper, card, bleed, expected):
    sheet = layout(SheetSpec(paper=PAPERS[paper], card=CARD_SIZES[card], bleed=bleed, cuts="separate"))
    assert (sheet.cols, sheet.rows, sheet.orientation) == expected


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("card", CARD_SIZES)
@pytest.mark.parametrize("cuts", ["separate", "auto"])
def test_grid_and_marks_stay_inside_the_printable_page(paper, card, cuts):
    sheet = layout(SheetSpec(paper=PAPERS[paper], card=CARD_SIZES[card], cuts=cuts))
    for cell in sheet.fronts:
        assert cell.x >= SAFE_MARGIN and cell.x + cell.width <= sheet.width - SAFE_MARGIN
        assert cell.y >= SAFE_MARGIN and cell.y + cell.height <= sheet.height - SAFE_MARGIN
    for mark in sheet.marks:
        for x, y in ((mark.x1, mark.y1), (mark.x2, mark.y2)):
            assert SAFE_MARGIN - 1e-6 <= x <= sheet.width - SAFE_MARGIN + 1e-6
            assert SAFE_MARGIN - 1e-6 <= y <= sheet.height - SAFE_MARGIN + 1e-6


def test_crop_marks_never_touch_a_card_and_line_up_with_every_cut():
    sheet = layout(SheetSpec(gutter=2.0))
    cuts_x = {round(v, 4) for c in sheet.fronts for v in (c.trim[0], c.trim[2])}
    cuts_y = {round(v, 4) for c in sheet.fronts for v in (c.trim[1], c.trim[3])}
    vertical = [m for m in sheet.marks if m.x1 == m.x2]
    horizontal = [m for m in sheet.marks if m.y1 == m.y2]
    assert {round(m.x1, 4) for m in vertical} == cuts_x
    assert {round(m.y1, 4) for m in horizontal} == cuts_y
    for mark in sheet.marks:
        assert abs(mark.x2 - mark.x1) + abs(mark.y2 - mark.y1) == pytest.approx(MARK_LENGTH)
        for cell in sheet.fronts:  # outside every card's bleed, by at least the gap
            gap = MARK_GAP / 2
            inside_x = cell.x - gap < max(mark.x1, mark.x2) and min(mark.x1, mark.x2) < cell.x + cell.width + gap
            inside_y = cell.y - gap < max(mark.y1, mark.y2) and min(mark.y1, mark.y2) < cell.y + cell.height + gap
            assert not (inside_x and inside_y)


def test_no_crop_marks_fits_more_cards():
    with_marks = layout(SheetSpec(paper=PAPERS["letter"], bleed=0))
    without = layout(SheetSpec(paper=PAPERS["letter"], bleed=0, crop_marks=False))
    assert without.marks == () and without.per_page >= with_marks.per_page
    assert (without.cols, without.rows) == (3, 3)


@pytest.mark.parametrize("paper, bleed, duplex, axis", [
    ("a4", 0.0, "long", "vertical"),  # portrait, turned over like a book page
    ("a4", 0.0, "short", "horizontal"),  # portrait, turned over like a notepad
    ("a4", 3.0, "long", "horizontal"),  # landscape: the long edge is horizontal
    ("a4", 3.0, "short", "vertical"),
])
def test_backs_are_mirrored_across_the_flip_axis(paper, bleed, duplex, axis):
    sheet = layout(SheetSpec(paper=PAPERS[paper], bleed=bleed, duplex=duplex, cuts="separate"))
    assert sheet.mirror_axis == axis
    for front, back in zip(sheet.fronts, sheet.backs):
        if axis == "vertical":
            assert back.x == pytest.approx(sheet.width - front.x - front.width)
            assert back.y == pytest.approx(front.y) and not back.rotated
        else:
            assert back.y == pytest.approx(sheet.height - front.y - front.height)
            assert back.x == pytest.approx(front.x) and back.rotated  # a half turn keeps top behind top


def test_back_offset_moves_only_the_backs():
    plain = layout(SheetSpec())
    moved = layout(SheetSpec(back_offset=(1.5, -0.5)))
    assert moved.fronts == plain.fronts
    for a, b in zip(plain.backs, moved.backs):
        assert (b.x - a.x, b.y - a.y) == pytest.approx((1.5, -0.5))


def test_no_duplex_has_no_backs():
    assert layout(SheetSpec(duplex="none")).backs == ()


def test_a_card_too_big_for_the_paper_is_a_usage_error():
    with pytest.raises(UsageError, match="does not fit"):
        layout(SheetSpec(card=parse_card_size("250x250mm")))
