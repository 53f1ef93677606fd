"""The files each shop takes, made from the deck's one-card-a-page layout (render/cards.py), written into
a staged output folder (render/output.py) together with the preflight report of those very files.

- png-files (The Game Crafter): fronts/<card-id>.png and backs/<back>.png at the shop's exact pixel size,
  and quantities.csv saying how many copies of each front to order.
- pdf, RGB (generic): the vector layout, every physical card as its front page then its back page.
- pdf, CMYK (DriveThruCards): each face rasterised at the shop's dpi, converted through an ICC profile with
  the ink limit (colour.py), placed full-bleed on PDF/X pages with TrimBox, BleedBox and output intent.
"""

from __future__ import annotations

import base64
import csv
import io
from dataclasses import dataclass
from pathlib import Path

from cardtool.csvtext import spreadsheet_text
from cardtool.deck.model import Deck
from cardtool.render.cards import DeckPrint
from cardtool.render.shop.preflight import Preflight, check_art, check_pdf, check_pngs, check_text
from cardtool.render.shop.presets import Preset

REPORT = "preflight.txt"
PDF_NAME = "cards.pdf"


@dataclass(frozen=True)
class ShopResult:
    preset: Preset
    files: tuple[str, ...]  # relative to the output folder, report last
    report: Preflight
    cards: int  # physical cards
    pages: int  # PDF pages, or PNG files


def shop_files(deck: Deck, preset: Preset, only: str | None, out: Path, reads=(), profile: Path | None = None,
               command: str = "render shop") -> ShopResult:
    """Write the shop's files and preflight.txt into out (staged: a failure leaves out as it was)."""
    from cardtool.render.output import staged_dir
    from cardtool.render.shop.colour import find_profile

    cmyk = find_profile(profile) if preset.colour == "cmyk" else None  # before the work: a missing one says so
    deck_print = DeckPrint(deck, preset.card, preset.bleed, only)
    faces, singles = deck_print.singles(backs=True)
    labels = [f"{face.card_id} {face.side}" for face in faces]
    index = {face.key: i for i, face in enumerate(faces)}
    counts = {card.id: card.count for card in deck_print.cards}
    copies = [(index[front.key], index[back.key]) for front, back in deck_print.pairs
              for _ in range(counts[front.card_id])]
    report = Preflight(str(out), preset)
    with staged_dir(out, reads=reads, command=command) as stage:
        if preset.output == "png-files":
            files = _png_files(stage, preset, faces, singles, counts, report)
            check_art(report, singles, labels)
            check_text(report, singles, labels, what="on the layout the PNGs are made from")
            pages = len(files) - 1
        else:
            order = [page for pair in copies for page in pair]  # front, back, front, back ...
            page_labels = [labels[i] for i in order]
            if cmyk is None:
                from cardtool.render.impose import merge

                pdf = merge([singles], [(0, i) for i in order], deck.manifest.name)
                check_pdf(report, pdf, page_labels)
            else:
                pdf = cmyk_pdf(deck_print, singles, order, preset, cmyk)
                check_pdf(report, pdf, page_labels, text=False)
                resolution = report.checked.pop("resolution")  # of the pages' own images: the shop's dpi by making
                check_art(report, singles, labels)
                report.checked["resolution"] = f"{resolution}; {report.checked['resolution']}"
                check_text(report, singles, labels, what="on the vector layout, before it is rasterised")
            (stage / PDF_NAME).write_bytes(pdf)
            files, pages = [PDF_NAME], len(order)
        (stage / REPORT).write_text(report.format(), encoding="utf-8")
    return ShopResult(preset, (*files, REPORT), report, len(copies), pages)


def _png_files(stage: Path, preset: Preset, faces, singles: bytes, counts: dict, report: Preflight) -> list[str]:
    from cardtool.render.images import rasterise

    width, height = preset.pixels
    backs = [f for f in faces if f.side == "back"]
    names = [f"fronts/{f.card_id}.png" if f.side == "front" else
             ("backs/back.png" if len(backs) == 1 else f"backs/{f.card_id}.png") for f in faces]
    written = []
    (stage / "fronts").mkdir()
    (stage / "backs").mkdir()
    for name, picture in zip(names, rasterise(singles, width, height)):
        buffer = io.BytesIO()
        picture.save(buffer, format="PNG", dpi=(preset.dpi, preset.dpi), compress_level=6)
        (stage / name).write_bytes(buffer.getvalue())
        written.append((name, buffer.getvalue()))
    check_pngs(report, written)
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(["file", "card", "name", "quantity"])
    for face, name in zip(faces, names):
        if face.side == "front":
            writer.writerow([name, face.card_id, spreadsheet_text(face.name), counts[face.card_id]])
    (stage / "quantities.csv").write_text(text.getvalue(), encoding="utf-8")
    return [*names, "quantities.csv"]


def cmyk_pdf(deck_print: DeckPrint, singles: bytes, order: list[int], preset: Preset, profile) -> bytes:
    """A PDF/X page per entry of order (a page of singles), each the face rasterised and made CMYK."""
    from cardtool.render.fitting import render_html
    from cardtool.render.images import rasterise
    from cardtool.render.parallel import join, run_sliced
    from cardtool.render.reproducible import fixed_clock, w3c_date
    from cardtool.render.shop.colour import cmyk_jpeg

    width, height = preset.pixels
    numbers = sorted(set(order))

    def convert(start: int, end: int) -> list[bytes]:
        """Faces start..end of numbers rasterised and made CMYK JPEGs (run on every core)."""
        return [cmyk_jpeg(picture, profile, preset.ink_limit, preset.dpi)
                for picture in rasterise(singles, width, height, numbers[start:end])]

    jpegs = join(run_sliced(convert, len(numbers), 8))
    urls = {number: "data:image/jpeg;base64," + base64.b64encode(jpeg).decode("ascii")
            for number, jpeg in zip(numbers, jpegs)}
    icc = "data:application/vnd.iccprofile;base64," + base64.b64encode(profile.data).decode("ascii")
    html = _pages_html(preset, [urls[n] for n in order], icc, deck_print.deck.manifest.name)
    document = render_html(html, deck_print.base_url, what=f"deck {deck_print.deck.manifest.id}")
    document.metadata.created = document.metadata.modified = w3c_date()
    with fixed_clock():
        return document.write_pdf(pdf_variant=preset.pdf_variant, pdf_identifier=True)


def _pages_html(preset: Preset, urls: list[str], icc: str, title: str) -> str:
    from markupsafe import escape

    card, bleed = preset.card, preset.bleed
    style = (f"@color-profile device-cmyk {{ src: url({icc}); components: cyan, magenta, yellow, black; }}"
             f"@page {{ size: {card.width}mm {card.height}mm; margin: 0; bleed: {bleed}mm; marks: none; }}"
             "html, body { margin: 0; padding: 0; }"
             f".page {{ position: relative; width: {card.width}mm; height: {card.height}mm; break-after: page; }}"
             ".page:last-child { break-after: auto; }"
             f"img {{ position: absolute; left: -{bleed}mm; top: -{bleed}mm; width: {card.width + 2 * bleed}mm; "
             f"height: {card.height + 2 * bleed}mm; }}")
    pages = "".join(f'<div class="page"><img src="{url}" alt=""></div>' for url in urls)
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>'
            f"<style>{style}</style></head><body>{pages}</body></html>")
