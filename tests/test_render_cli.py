"""`cardtool render`: its subcommands, clean errors on bad input, and README sections naming every option."""

from __future__ import annotations

import argparse

import pytest
from pypdf import PdfReader

from cardtool.commands import build, render
from tests.conftest import DECKS, ROOT


def _subparsers(module):
    parser = argparse.ArgumentParser()
    module.add_arguments(parser)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices
    return {module.NAME: parser}


@pytest.mark.parametrize("name, parser", list(_subparsers(render).items()) + [("build", _subparsers(build)["build"])])
def test_readme_section_names_every_option(name, parser):
    readme = (ROOT / "README.md").read_text()
    heading = f"### `cardtool {name}" if name == "build" else f"### `cardtool render {name}"
    assert heading in readme, heading
    section = readme.split(heading, 1)[1].split("\n### ", 1)[0]
    options = {opt for action in parser._actions for opt in action.option_strings
               if opt.startswith("--") and opt != "--help"}
    assert not {opt for opt in options if opt not in section}


def test_unknown_card_in_only_is_a_clean_error_with_a_suggestion(run_cli, tmp_path):
    code, out, err = run_cli("render", "cards", DECKS / "symbiosis", "--only", "summer-fish-per-fsh",
                             "--out", tmp_path / "c.pdf")
    assert code == 1 and "did you mean 'summer-fish-per-fish'?" in err and "Traceback" not in err


@pytest.mark.parametrize("args, message", [
    (["--paper", "a5"], "unknown paper 'a5'"),
    (["--card", "pokr"], "did you mean 'poker'"),
    (["--bleed", "lots"], "bleed 'lots' is not a length"),
    (["--back-offset", "1"], "back offset '1' must be X,Y"),
    (["--card", "300x300mm"], "does not fit on A4"),
])
def test_bad_options_are_usage_errors(run_cli, args, message, tmp_path):
    code, _, err = run_cli("render", "cards", DECKS / "symbiosis", *args, "--out", tmp_path / "c.pdf")
    assert code == 2 and message in err and "Traceback" not in err


def test_render_cards_and_alignment(run_cli, tmp_path):
    code, out, err = run_cli("render", "cards", DECKS / "symbiosis", "--only", "winter-frog-8,spring-fish-4",
                             "--paper", "letter", "--duplex", "short", "--back-offset", "0.5,-0.5",
                             "--out", tmp_path / "c.pdf")
    assert code == 0, err
    assert "2 cards on 1 fronts page(s), each followed by its backs page (short-edge flip)" in out
    assert len(PdfReader(tmp_path / "c.pdf").pages) == 2
    code, out, err = run_cli("render", "alignment", "--paper", "letter", "--out", tmp_path / "a.pdf")
    assert code == 0, err
    reader = PdfReader(tmp_path / "a.pdf")
    assert len(reader.pages) == 2
    assert "FRONT" in reader.pages[0].extract_text() and "--back-offset" in reader.pages[1].extract_text()


def test_alignment_back_targets_sit_behind_the_front_crosses(tmp_path):
    """Rasterised: each blue dot on the back page is where its front's cross is, mirrored, plus the offset."""
    import pypdfium2 as pdfium

    from cardtool.render.alignment import alignment_pdf
    from cardtool.render.sheets import PAPERS, SheetSpec

    for duplex, offset in (("long", (0.0, 0.0)), ("short", (1.0, -2.0))):
        sheet, pdf = alignment_pdf(SheetSpec(paper=PAPERS["a4"], duplex=duplex, back_offset=offset))
        back = pdfium.PdfDocument(pdf)[1].render(scale=100 / 72).to_pil().convert("RGB")
        for front, cell in zip(sheet.fronts, sheet.backs):
            if sheet.mirror_axis == "vertical":
                cx, cy = sheet.width - (front.x + front.width / 2), front.y + front.height / 2
            else:
                cx, cy = front.x + front.width / 2, sheet.height - (front.y + front.height / 2)
            x, y = round((cx + offset[0]) / 25.4 * 100), round((cy + offset[1]) / 25.4 * 100)
            r, g, b = back.getpixel((x, y))
            assert b > 150 and r < 80, (duplex, x, y, (r, g, b))  # the blue dot
