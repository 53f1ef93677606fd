"""Benchmark: the full Ecologies print-and-play PDF (108 cards with backs) and its per-card images.

Run with `.venv/bin/python benchmarks/render_bench.py [DECK]`; prints the PDF's time cold (every face
laid out; one run, it is long) and warm (every face taken from a build cache; the best of three), wall
and CPU seconds, and the images' time. Target (issue 8, issue 15 item 3): under 3 s for the PDF on the
project's machine class (2 cores). The CPU figure counts this process only, not its forked workers.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardtool.deck.loader import load_deck  # noqa: E402
from cardtool.render.cache import BuildCache, using  # noqa: E402
from cardtool.render.cards import DeckPrint  # noqa: E402
from cardtool.render.images import card_images  # noqa: E402
from cardtool.render.parallel import workers  # noqa: E402
from cardtool.render.sheets import CARD_SIZES, SheetSpec, parse_length  # noqa: E402

RUNS = 3


def main() -> None:
    deck = load_deck(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "decks" / "ecologies-bizarre-biomes")
    spec = SheetSpec()
    print(f"deck {deck.manifest.id}: {deck.size} cards ({len(deck.cards)} different), {workers()} worker(s); "
          f"in this process, without cardtool's start-up and the deck's loading (see build_bench.py for the "
          f"command line); load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as folder:
        cache = BuildCache.of(Path(folder))
        for label, kept in (("cold (every face laid out)", None), ("warm (every face kept)", cache)):
            runs = []
            for run in range(RUNS if kept is not None else 1):
                with using(kept if kept is not None else None):
                    cpu, started = time.process_time(), time.perf_counter()
                    sheet, pdf = DeckPrint(deck, spec.card, spec.bleed).sheets(spec)
                    runs.append((time.perf_counter() - started, time.process_time() - cpu))
            if kept is None:  # fill the cache for the warm runs
                with using(cache):
                    DeckPrint(deck, spec.card, spec.bleed).sheets(spec)
            wall, cpu = min(runs)
            print(f"cards PDF, {label}: best {wall:.2f} s wall, {cpu:.2f} s cpu of this process "
                  f"(target < 3 s: {'met' if wall < 3 else 'NOT met'}; {sheet.pages(deck.size) * 2} pages, "
                  f"{len(pdf) // 1024} KB)")
    image_times = []
    with tempfile.TemporaryDirectory() as folder:
        for run in range(RUNS):
            started = time.perf_counter()
            images = card_images(deck, CARD_SIZES["poker"], parse_length("1/8in"), 300, None, Path(folder) / "images")
            image_times.append(time.perf_counter() - started)
            print(f"  card images, run {run + 1}: {image_times[-1]:.2f} s ({len(images)} PNGs of "
                  f"{images[0].width} x {images[0].height} px)")
    print(f"card images: best {min(image_times):.2f} s")


if __name__ == "__main__":
    main()
