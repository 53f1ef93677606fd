"""Pages with no margin boxes to draw, laid out without trying each of them.

After laying out a page, WeasyPrint makes its sixteen CSS margin boxes (@top-left ... @bottom-right-corner):
for each it builds a box from the page's style, resolves its percentages, and keeps it only if its
`content` makes it generated (not `normal`, `none` or `inhibit`). A card page has none: its stylesheet
has no margin rules, so all sixteen are built and dropped on every page: 0.20 s of CPU of the 2.6 s
that laying out the 95 Ecologies faces takes (8%), and as much again for their shared pieces.

`skip_empty_margin_boxes` gives WeasyPrint a `make_margin_boxes` that first asks the page's computed
margin-box styles, as WeasyPrint itself decides it (a missing style means the page's anonymous one,
whose `content` is `normal`): when none is generated it yields nothing, which is what WeasyPrint would
yield; otherwise (a rulebook's page numbers) WeasyPrint's own runs. The boxes it skips are never drawn,
so every PDF is the same, byte for byte (tests/test_render_cards.py compares them).
"""

from __future__ import annotations

KEYWORDS = tuple(f"@{side}-{place}" for side in ("top", "bottom") for place in ("left", "center", "right")) + \
    tuple(f"@{side}-{place}" for side in ("left", "right") for place in ("top", "middle", "bottom")) + \
    tuple(f"@{corner}-corner" for corner in ("top-left", "top-right", "bottom-left", "bottom-right"))
NOT_GENERATED = ("normal", "inhibit", "none")


def generates_margin_boxes(context, page) -> bool:
    """Whether any margin box of the page would be generated (as WeasyPrint's make_box decides it)."""
    for keyword in KEYWORDS:
        style = context.style_for(page.page_type, keyword)
        if style is not None and style["content"] not in NOT_GENERATED:
            return True
    return False


def skip_empty_margin_boxes() -> None:
    """Install the quicker make_margin_boxes in WeasyPrint's layout (once); nothing where its layout
    differs from the one this was written for."""
    try:
        import weasyprint.layout as layout
        from weasyprint.layout import page as page_layout
    except ImportError:
        return
    original = getattr(layout, "make_margin_boxes", None)
    if original is None or getattr(original, "_cardtool", False) or original is not getattr(
            page_layout, "make_margin_boxes", None):
        return

    def make_margin_boxes(context, page, state):
        if generates_margin_boxes(context, page):
            yield from original(context, page, state)

    make_margin_boxes._cardtool = True
    make_margin_boxes.__doc__ = original.__doc__
    layout.make_margin_boxes = make_margin_boxes
