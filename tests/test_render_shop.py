"""`cardtool render shop`: each shop's files, their own preflight, and a second check by qpdf/Ghostscript."""

from __future__ import annotations

import csv
import dataclasses
import io
import shutil
import subprocess

import pikepdf
import pytest
from PIL import Image

from cardtool.cli import main
from cardtool.deck.loader import load_deck
from cardtool.errors import UsageError
from cardtool.render.shop import presets
from cardtool.render.shop.colour import find_profile, limit_ink, total_ink
from cardtool.render.shop.preflight import Preflight, check_pdf
from tests.conftest import DECKS

ONLY = "spring-frog-per-pink,summer-frog-7"  # one copy each, different art, one back
DECK = str(DECKS / "symbiosis")


def _has_cmyk_profile() -> bool:
    try:
        find_profile()
    except UsageError:
        return False
    return True


needs_profile = pytest.mark.skipif(not _has_cmyk_profile(), reason="no CMYK ICC profile: apt-get install ghostscript")


@pytest.fixture(scope="module")
def drivethrucards(tmp_path_factory):
    out = tmp_path_factory.mktemp("shop") / "dtc"
    return main(["render", "shop", DECK, "--shop", "drivethrucards", "--only", ONLY, "--out", str(out)]), out


@pytest.fixture(scope="module")
def generic(tmp_path_factory):
    out = tmp_path_factory.mktemp("shop") / "generic"
    return main(["render", "shop", DECK, "--shop", "generic", "--only", ONLY, "--out", str(out)]), out


def _images(page) -> list:
    return [x for x in page.Resources.XObject.values() if x.Subtype == "/Image"]


def _second_checks(pdf) -> None:
    """qpdf and Ghostscript, whichever is installed, must read the file without an error."""
    ran = 0
    if shutil.which("qpdf"):
        done = subprocess.run(["qpdf", "--check", str(pdf)], capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "No syntax or stream encoding errors" in done.stdout
        ran += 1
    if shutil.which("gs"):
        done = subprocess.run(["gs", "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-dPDFSTOPONERROR", "-sDEVICE=nullpage",
                               str(pdf)], capture_output=True, text=True)
        assert done.returncode == 0 and "Error" not in done.stdout + done.stderr, done.stdout + done.stderr
        ran += 1
    if not ran:
        pytest.skip("neither qpdf nor Ghostscript is installed for the independent check")


@needs_profile
def test_drivethrucards_pdf_is_cmyk_pdfx_front_back_alternating_and_passes_its_preflight(drivethrucards):
    code, out = drivethrucards
    assert code == 0
    report = (out / "preflight.txt").read_text()
    assert report.rstrip().endswith("passed: 0 problem(s)")
    for check in ("pdf/x", "boxes", "fonts", "resolution", "colour", "ink", "safe-area"):
        assert f"ok   {check}:" in report
    with pikepdf.open(out / "cards.pdf") as pdf:
        assert str(pdf.docinfo["/GTS_PDFXVersion"]).startswith("PDF/X-1")
        assert "/DestOutputProfile" in pdf.Root.OutputIntents[0]
        assert len(pdf.pages) == 4  # two cards, each front then back
        for page in pdf.pages:
            trim, bleed = [float(v) for v in page.TrimBox], [float(v) for v in page.BleedBox]
            assert trim[2] - trim[0] == pytest.approx(180, abs=0.1)  # 2.5 in
            assert trim[0] - bleed[0] == pytest.approx(9, abs=0.1)  # 1/8 in
            images = _images(page)
            assert images and all(str(i.ColorSpace) == "/DeviceCMYK" for i in images)
            ink, _ = total_ink(pikepdf.PdfImage(images[0]).as_pil_image())
            assert ink <= 240
        assert _images(pdf.pages[1])[0].objgen == _images(pdf.pages[3])[0].objgen  # one back image, shared


@needs_profile
def test_drivethrucards_pdf_passes_an_independent_check(drivethrucards):
    _second_checks(drivethrucards[1] / "cards.pdf")


def test_generic_pdf_is_vector_with_fonts_and_passes_preflight_and_qpdf(generic):
    code, out = generic
    assert code == 0, (out / "preflight.txt").read_text()
    with pikepdf.open(out / "cards.pdf") as pdf:
        assert len(pdf.pages) == 4
        assert any("/Font" in p.Resources for p in pdf.pages)
    _second_checks(out / "cards.pdf")


def test_the_game_crafter_gets_825_by_1125_pngs_a_back_and_quantities(tmp_path):
    out = tmp_path / "tgc"
    assert main(["render", "shop", DECK, "--shop", "tgc", "--only", "spring-frog-3,summer-frog-7",
                 "--out", str(out)]) == 0
    rows = list(csv.DictReader((out / "quantities.csv").open()))
    deck = load_deck(DECKS / "symbiosis")
    counts = {c.id: c.count for c in deck.cards}
    assert [(r["file"], int(r["quantity"])) for r in rows] == \
        [(f"fronts/{r['card']}.png", counts[r["card"]]) for r in rows]
    for name in [r["file"] for r in rows] + ["backs/back.png"]:
        with Image.open(out / name) as png:
            assert png.size == (825, 1125) and png.mode == "RGB" and round(png.info["dpi"][0]) == 300
    assert "passed" in (out / "preflight.txt").read_text()


def test_preflight_names_the_page_and_card_of_each_problem(generic):
    """The RGB file checked as if it were for the CMYK shop, with a safe area no card keeps: every problem
    is reported with its page and card, and the command's own run would exit 1."""
    strict = dataclasses.replace(presets.PRESETS["drivethrucards"], bleed=3.0, safe=20.0)
    report = Preflight("cards.pdf", strict)
    pdf = (generic[1] / "cards.pdf").read_bytes()
    labels = ["spring-frog-per-pink front", "back back", "summer-frog-7 front", "back back"]
    check_pdf(report, pdf, labels)
    assert not report.ok
    checks = {f.check for f in report.findings}
    assert {"colour", "safe-area", "pdf/x"} <= checks
    safe = [f for f in report.findings if f.check == "safe-area"]
    assert {(f.page, f.card) for f in safe} >= {(1, "spring-frog-per-pink front"), (3, "summer-frog-7 front")}
    assert "page 3 (summer-frog-7 front)" in report.format() and "FAILED" in report.format()


def test_a_failing_preflight_exits_1_and_still_writes_the_report(tmp_path, monkeypatch, capsys):
    strict = dataclasses.replace(presets.PRESETS["generic"], safe=20.0)
    monkeypatch.setitem(presets.PRESETS, "generic", strict)
    out = tmp_path / "strict"
    assert main(["render", "shop", DECK, "--shop", "generic", "--only", "summer-frog-7", "--out", str(out)]) == 1
    printed = capsys.readouterr().out
    assert "FAIL safe-area: page 1 (summer-frog-7 front)" in printed and "preflight FAILED" in printed
    assert "FAIL safe-area" in (out / "preflight.txt").read_text()


def test_an_unknown_shop_is_a_usage_error_with_a_suggestion(tmp_path, capsys):
    assert main(["render", "shop", DECK, "--shop", "drivethru", "--out", str(tmp_path / "x")]) == 2
    assert "drivethrucards" in capsys.readouterr().err


def test_out_never_takes_a_folder_of_the_users_files(tmp_path, capsys):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    assert main(["render", "shop", DECK, "--shop", "generic", "--only", "summer-frog-7", "--out", str(mine)]) == 2
    assert [p.name for p in mine.iterdir()] == ["notes.txt"]
    assert main(["render", "tts", DECK, "--only", "summer-frog-7", "--out", str(mine)]) == 2
    assert [p.name for p in mine.iterdir()] == ["notes.txt"]


def test_ink_limit_keeps_black_and_scales_colour_into_the_limit():
    import numpy as np

    rng = np.random.default_rng(7)
    pixels = rng.integers(0, 256, size=(40, 40, 4), dtype=np.uint8)
    limited = limit_ink(Image.fromarray(pixels, "CMYK"), 240)
    out = np.asarray(limited, dtype=np.int32)
    assert total_ink(limited)[0] <= 240
    assert (out[..., 3] == pixels[..., 3]).all()  # black is kept: only cyan, magenta and yellow give way
    under = pixels.astype(np.int32).sum(axis=-1) <= 612
    assert (np.abs(out[under] - pixels[under]) <= 1).all()  # what was within the limit is left alone


def test_a_missing_cmyk_profile_says_how_to_get_one(tmp_path):
    with pytest.raises(UsageError, match="does not exist"):
        find_profile(tmp_path / "nope.icc")
    from PIL import ImageCms

    (tmp_path / "srgb.icc").write_bytes(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    with pytest.raises(UsageError, match="not CMYK"):
        find_profile(tmp_path / "srgb.icc")


def _bad_pdf() -> bytes:
    """A one-page PDF with what shops reject: an unembedded font, a 10 px RGB image drawn 2 in wide, a
    400% CMYK fill and a half-transparent graphics state; boxes right for the DriveThruCards preset."""
    pdf = pikepdf.new()
    image = pikepdf.Stream(pdf, bytes(10 * 10 * 3), Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image,
                           Width=10, Height=10, ColorSpace=pikepdf.Name.DeviceRGB, BitsPerComponent=8)
    font = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica)
    state = pikepdf.Dictionary(Type=pikepdf.Name.ExtGState, ca=0.5)
    content = b"q 1 1 1 1 k 0 0 50 50 re f Q q /G0 gs 144 0 0 144 20 20 cm /Im0 Do Q BT /F1 9 Tf 60 120 Td (Hi) Tj ET"
    page = pikepdf.Page(pikepdf.Dictionary(
        Type=pikepdf.Name.Page, MediaBox=[-9, -9, 189, 261], BleedBox=[-9, -9, 189, 261], TrimBox=[0, 0, 180, 252],
        Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im0=image), Font=pikepdf.Dictionary(F1=font),
                                     ExtGState=pikepdf.Dictionary(G0=state)),
        Contents=pikepdf.Stream(pdf, content)))
    pdf.pages.append(page)
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def test_preflight_finds_unembedded_fonts_low_resolution_rgb_transparency_and_ink():
    report = Preflight("bad.pdf", presets.PRESETS["drivethrucards"])
    check_pdf(report, _bad_pdf(), ["wolf front"], text=False)
    found = {f.check: f for f in report.findings}
    assert set(found) >= {"pdf/x", "fonts", "resolution", "colour", "ink"}
    assert "Helvetica is not embedded" in found["fonts"].message and found["fonts"].card == "wolf front"
    assert "5 dpi" in found["resolution"].message
    assert "400% total ink" in found["ink"].message
    assert any("transparency" in f.message for f in report.findings if f.check == "colour")
    assert not any(f.check == "boxes" for f in report.findings)


def test_low_resolution_art_fails_a_raster_shop_by_card(tmp_path, capsys):
    """A 40 px picture fills a card's art area at far under 300 dpi: The Game Crafter's PNGs have the
    shop's pixels, but the art prints blurred, so the preflight fails naming the card."""
    deck = tmp_path / "symbiosis"
    shutil.copytree(DECKS / "symbiosis", deck)
    (deck / "art").mkdir()
    Image.new("RGB", (40, 40), "#3a7").save(deck / "art" / "frog.png")
    cards = deck / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace(
        "  - id: summer-frog-7\n", "  - id: summer-frog-7\n    art: art/frog.png\n", 1), encoding="utf-8")
    out = tmp_path / "tgc"
    assert main(["render", "shop", str(deck), "--shop", "tgc", "--only", "summer-frog-7", "--out", str(out)]) == 1
    assert "FAIL resolution: page 1 (summer-frog-7 front): an image of 40 x 40 px" in capsys.readouterr().out
