"""Benchmark: the full Ecologies print-and-play PDF (108 cards with backs) and its per-card images.

Run with `.venv/bin/python benchmarks/render_bench.py [DECK]`; prints seconds per run and the best.
Target (issue 8): under 3 s for the PDF on the project's machine class (2 cores).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardtool.deck.loader import load_deck  # noqa: E402
from cardtool.render.cards import DeckPrint  # noqa: E402
from cardtool.render.images import card_images  # noqa: E402
from cardtool.render.parallel import workers  # noqa: E402
from cardtool.render.sheets import CARD_SIZES, SheetSpec, parse_length  # noqa: E402

RUNS = 3


def main() -> None:
    deck = load_deck(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "decks" / "ecologies-bizarre-biomes")
    spec = SheetSpec()
    print(f"deck {deck.manifest.id}: {deck.size} cards ({len(deck.cards)} different), {workers()} worker(s)")
    pdf_times = []
    for run in range(RUNS):
        started = time.perf_counter()
        sheet, pdf = DeckPrint(deck, spec.card, spec.bleed).sheets(spec)
        pdf_times.append(time.perf_counter() - started)
        print(f"  cards PDF, run {run + 1}: {pdf_times[-1]:.2f} s ({sheet.pages(deck.size) * 2} pages, "
              f"{len(pdf) // 1024} KB)")
    image_times = []
    with tempfile.TemporaryDirectory() as folder:
        for run in range(RUNS):
            started = time.perf_counter()
            images = card_images(deck, CARD_SIZES["poker"], parse_length("1/8in"), 300, None, Path(folder) / "images")
            image_times.append(time.perf_counter() - started)
            print(f"  card images, run {run + 1}: {image_times[-1]:.2f} s ({len(images)} PNGs of "
                  f"{images[0].width} x {images[0].height} px)")
    best = min(pdf_times)
    print(f"cards PDF: best {best:.2f} s (target < 3 s: {'met' if best < 3 else 'NOT met'}); "
          f"card images: best {min(image_times):.2f} s")


if __name__ == "__main__":
    main()
