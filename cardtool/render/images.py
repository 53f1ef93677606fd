"""Card images for print-on-demand shops and virtual tables: one PNG per different face and back, with
bleed, rasterised from the one-card-a-page PDF, and a contact sheet of the whole deck."""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass
from pathlib import Path

from cardtool.csvtext import spreadsheet_text
from cardtool.deck.model import Deck
from cardtool.errors import RenderError
from cardtool.render.cache import current as current_cache
from cardtool.render.cards import DeckPrint
from cardtool.render.image_cache import ImageReuse
from cardtool.render.output import staged_dir
from cardtool.render.parallel import join, run_sliced
from cardtool.render.sheets import CardSize

THUMB_WIDTH = 180  # px of a card on the contact sheet
CONTACT_COLUMNS = 10
BACK_PREFIX = "card-"  # backs are card-back.png (or card-back-<kind>.png), apart from card ids


@dataclass(frozen=True)
class Image:
    file: str
    card_id: str
    name: str
    side: str
    count: int
    width: int
    height: int


def pixels(mm: float, dpi: int) -> int:
    return round(mm / 25.4 * dpi)


def rasterise(pdf: bytes, width: int, height: int, numbers=None):
    """Pages of a PDF (all, or those numbered) as PIL images of exactly width x height pixels."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    try:
        for number in numbers if numbers is not None else range(len(document)):
            page = document[number]
            scale = (width - 0.01) / page.get_width()
            image = page.render(scale=scale).to_pil().convert("RGB")
            if image.size != (width, height):  # a pixel of rounding on the height
                image = image.resize((width, height))
            yield image
    finally:
        document.close()


def card_images(deck: Deck, card: CardSize, bleed: float, dpi: int, only: str | None, out: Path) -> list[Image]:
    """Write out/<card-id>.png for every different front, out/card-back*.png, cards.csv and contact-sheet.png."""
    if not 72 <= dpi <= 1200:
        raise RenderError(f"--dpi {dpi} is out of range; print shops ask for 300 (72 to 1200 allowed)")
    deck_print = DeckPrint(deck, card, bleed, only)
    faces, pdf = deck_print.singles(backs=True)
    width, height = pixels(card.width + 2 * bleed, dpi), pixels(card.height + 2 * bleed, dpi)
    counts = {c.id: c.count for c in deck_print.cards}
    images = []
    for face in faces:
        front = face.side == "front"
        name = f"{face.card_id}.png" if front else f"{BACK_PREFIX}{face.card_id}.png"
        images.append(Image(name, face.card_id, face.name, face.side,
                            counts[face.card_id] if front else sum(counts.values()), width, height))
    if len({image.file for image in images}) < len(images):
        raise RenderError(f"a card id clashes with the back's file name {BACK_PREFIX}back.png; rename the card")
    with staged_dir(out) as stage:
        (stage / "cards.pdf").write_bytes(pdf)
        reuse = ImageReuse(current_cache(), deck_print.face_pdfs, (width, height, dpi))  # a build's cache
        todo = reuse.missing(stage, [image.file for image in images])

        def save(start: int, end: int) -> list:
            """Rasterise and write the pages todo[start:end]; return their thumbnails for the contact sheet."""
            pages = rasterise(pdf, width, height, todo[start:end])
            thumbs = []
            for image, picture in zip([images[i] for i in todo[start:end]], pages):
                picture.save(stage / image.file, dpi=(dpi, dpi), compress_level=3)
                thumbs.append(picture.resize((THUMB_WIDTH, round(THUMB_WIDTH * height / width))))
            return thumbs

        made = join(run_sliced(save, len(todo), 8)) if todo else []
        thumbs = reuse.thumbnails(stage, [image.file for image in images], todo, made)
        _write_index(stage / "cards.csv", images)
        contact_sheet(thumbs, images).save(stage / "contact-sheet.png", optimize=True)
    return images


def _write_index(path: Path, images: list[Image]) -> None:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["file", "card", "name", "side", "copies", "width_px", "height_px"])
    for image in images:
        writer.writerow([image.file, image.card_id, spreadsheet_text(image.name), image.side, image.count, image.width, image.height])
    path.write_text(buffer.getvalue(), encoding="utf-8")


def contact_sheet(pictures, images: list[Image]):
    """All faces side by side, each with its name and copy count, for checking a deck at a glance."""
    from PIL import Image as PILImage, ImageDraw, ImageFont

    thumb_h = round(THUMB_WIDTH * pictures[0].height / pictures[0].width)
    label_h, gap = 30, 12
    columns = min(CONTACT_COLUMNS, len(pictures))
    rows = math.ceil(len(pictures) / columns)
    sheet = PILImage.new("RGB", (gap + columns * (THUMB_WIDTH + gap), gap + rows * (thumb_h + label_h + gap)),
                         "#f4f1ea")
    draw = ImageDraw.Draw(sheet)
    font = ImageFont.load_default(size=12)
    for i, (picture, image) in enumerate(zip(pictures, images)):
        x = gap + (i % columns) * (THUMB_WIDTH + gap)
        y = gap + (i // columns) * (thumb_h + label_h + gap)
        sheet.paste(picture if picture.size == (THUMB_WIDTH, thumb_h) else picture.resize((THUMB_WIDTH, thumb_h)),
                    (x, y))
        label = image.name if image.side == "front" else "Back"
        copies = f" x{image.count}" if image.side == "front" and image.count > 1 else ""
        text = label + copies
        while draw.textlength(text, font=font) > THUMB_WIDTH and len(label) > 4:
            label = label[:-2]
            text = label + "…" + copies
        draw.text((x, y + thumb_h + 4), text, fill="#222222", font=font)
    return sheet
