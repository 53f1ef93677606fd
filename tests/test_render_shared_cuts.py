"""Shared cut lines: 9 poker cards a page on A4 and Letter, one cut between neighbours, bleed kept on the
outer edges of the block, a crop mark in line with every cut, backs clipped like their fronts."""

from __future__ import annotations

import pytest

from cardtool.errors import UsageError
from cardtool.render.sheets import CARD_SIZES, PAPERS, SAFE_MARGIN, SheetSpec, layout


def _spec(paper="a4", **kw):
    return SheetSpec(paper=PAPERS[paper], card=CARD_SIZES["poker"], bleed=3.0, **kw)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_poker_cards_with_bleed_fit_nine_a_page_by_default(paper):
    sheet = layout(_spec(paper))
    assert (sheet.cols, sheet.rows, sheet.cuts) == (3, 3, "shared")
    assert sheet.pages(108) == 12
    assert layout(_spec(paper, cuts="separate")).per_page < 9  # what the default used to give


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_neighbours_share_one_cut_and_the_bleed_stays_on_the_outer_edges(paper):
    sheet = layout(_spec(paper))
    cells = sheet.fronts
    for index, cell in enumerate(cells):
        col, row = index % sheet.cols, index // sheet.cols
        left, top, right, bottom = cell.clip
        trim = cell.trim
        assert left == pytest.approx(cell.x if col == 0 else trim[0])
        assert right == pytest.approx(cell.x + cell.width if col == sheet.cols - 1 else trim[2])
        assert top == pytest.approx(cell.y if row == 0 else trim[1])
        assert bottom == pytest.approx(cell.y + cell.height if row == sheet.rows - 1 else trim[3])
        if col + 1 < sheet.cols:  # the right neighbour's cut is this card's cut
            assert cells[index + 1].trim[0] == pytest.approx(trim[2])
        if row + 1 < sheet.rows:
            assert cells[index + sheet.cols].trim[1] == pytest.approx(trim[3])
    block = (cells[0].x, cells[0].y, cells[-1].x + cells[-1].width, cells[-1].y + cells[-1].height)
    assert block[0] >= SAFE_MARGIN - 1e-6 and block[2] <= sheet.width - SAFE_MARGIN + 1e-6
    assert block[1] >= SAFE_MARGIN - 1e-6 and block[3] <= sheet.height - SAFE_MARGIN + 1e-6


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_mark_in_line_with_every_cut_outside_every_card(paper):
    sheet = layout(_spec(paper))
    xs = {round(v, 4) for c in sheet.fronts for v in (c.trim[0], c.trim[2])}
    ys = {round(v, 4) for c in sheet.fronts for v in (c.trim[1], c.trim[3])}
    assert len(xs) == sheet.cols + 1 and len(ys) == sheet.rows + 1  # shared: one cut between neighbours
    vertical = [m for m in sheet.marks if m.x1 == m.x2]
    horizontal = [m for m in sheet.marks if m.y1 == m.y2]
    assert {round(m.x1, 4) for m in vertical} == xs and {round(m.y1, 4) for m in horizontal} == ys
    for side in (min, max):  # marks at both ends of every cut
        assert len({round(m.x1, 4) for m in vertical if side(m.y1, m.y2) == side(
            side(n.y1, n.y2) for n in vertical)}) == len(xs)
    for mark in sheet.marks:
        for cell in sheet.fronts:  # never over a card's trim
            l, t, r, b = cell.trim
            assert max(mark.x1, mark.x2) <= l + 1e-6 or min(mark.x1, mark.x2) >= r - 1e-6 or \
                max(mark.y1, mark.y2) <= t + 1e-6 or min(mark.y1, mark.y2) >= b - 1e-6
        for x, y in ((mark.x1, mark.y1), (mark.x2, mark.y2)):
            assert SAFE_MARGIN - 1e-6 <= x <= sheet.width - SAFE_MARGIN + 1e-6
            assert SAFE_MARGIN - 1e-6 <= y <= sheet.height - SAFE_MARGIN + 1e-6


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_backs_are_clipped_like_their_fronts_mirrored(duplex):
    sheet = layout(_spec("letter", duplex=duplex))
    for front, back in zip(sheet.fronts, sheet.backs):
        fl, ft, fr, fb = front.clip
        bl, bt, br, bb = back.clip
        assert (br - bl, bb - bt) == pytest.approx((fr - fl, fb - ft))
        if sheet.mirror_axis == "vertical":  # the left bleed of a front is the right bleed of its back
            assert (fl - front.x, bt - back.y) == pytest.approx((back.x + back.width - br, ft - front.y))
        else:
            assert (ft - front.y, bl - back.x) == pytest.approx((back.y + back.height - bb, fl - front.x))


def test_a_card_next_to_an_empty_place_keeps_its_bleed():
    sheet = layout(_spec())
    clips = sheet.clips(4)  # the last page holds four cards: 3 in the first row, 1 in the second
    first, last = sheet.fronts[0], sheet.fronts[3]
    assert clips[0][3] == pytest.approx(first.trim[3])  # a neighbour below: shared cut
    assert clips[1][3] == pytest.approx(sheet.fronts[1].y + sheet.fronts[1].height)  # nothing below
    assert clips[3][2] == pytest.approx(last.x + last.width)  # nothing to its right
    assert len(sheet.clips(4, backs=True)) == 4


def test_gutter_takes_separate_cuts_and_shared_refuses_a_gutter():
    assert layout(_spec(gutter=2.0, cuts="separate")).cuts == "separate"
    with pytest.raises(UsageError, match="gutter"):
        _spec(gutter=2.0, cuts="shared")
