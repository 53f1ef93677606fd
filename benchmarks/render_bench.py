"""Benchmark: the full Ecologies print-and-play PDF (108 cards with backs) and its per-card images.

Run with `.venv/bin/python benchmarks/render_bench.py [DECK]`; prints the PDF's time cold (every face
laid out; one run, it is long) and warm (every face taken from a build cache; the best of three), wall
and CPU seconds, and the images' time. Target (issue 8, issue 15 item 3): under 3 s for the PDF on the
project's machine class (2 cores). The CPU figure counts this process only, not its forked workers.

`--phases` instead lays every face out cold in this one process (CARDTOOL_WORKERS=1) and prints the CPU
seconds of each of WeasyPrint's steps, the profile that says where a cold render's time goes.
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
PHASES = (  # (module, attribute, label): WeasyPrint's steps, timed where cardtool and WeasyPrint call them
    ("cardtool.render.cards", "render_html", "HTML to laid-out pages (all of the next four)"),
    ("weasyprint.HTML", "__init__", "  parsing the HTML"),
    ("weasyprint.document", "get_all_computed_styles", "  the cascade (computed styles)"),
    ("weasyprint.document", "build_formatting_structure", "  building boxes"),
    ("cardtool.render.fitting", "check_floors", "  checking text floors"),
    ("cardtool.render.cards", "write_pages", "each page written as its own PDF (all of the next three)"),
    ("weasyprint.document.Page", "paint", "  painting (text, pictures, borders)"),
    ("weasyprint.images.SVGImage", "draw", "    of which SVG pictures"),
    ("weasyprint.pdf.fonts.Font", "clean", "  subsetting fonts"),
    ("cardtool.render.cards", "impose", "imposing the sheets (fonts merged)"),
    ("cardtool.render.cards.DeckPrint", "_lay_out_pieces", "  the shared pieces (within the lines above)"),
    ("cardtool.render.cards", "stamp", "pieces stamped under the faces' text (render/layers.py)"),
)


def phases(deck) -> None:
    """CPU seconds of each step of a cold render in this process (layout itself is the first line less
    the four under it)."""
    import importlib

    from cardtool.render.libraries import import_weasyprint

    os.environ["CARDTOOL_WORKERS"] = "1"
    import_weasyprint()
    spent: dict[str, float] = {}
    for where, name, label in PHASES:
        path = where.split(".")
        for cut in range(len(path), 0, -1):  # the longest importable prefix, then attributes
            try:
                target = importlib.import_module(".".join(path[:cut]))
                break
            except ImportError:
                continue
        for part in path[cut:]:
            target = getattr(target, part)
        original = getattr(target, name)

        def timed(*args, _original=original, _label=label, **kwargs):
            started = time.process_time()
            try:
                return _original(*args, **kwargs)
            finally:
                spent[_label] = spent.get(_label, 0.0) + time.process_time() - started
        setattr(target, name, timed)
    spec = SheetSpec()
    cpu = time.process_time()
    DeckPrint(deck, spec.card, spec.bleed).sheets(spec)
    total = time.process_time() - cpu
    print(f"cold cards PDF in one process: {total:.2f} s cpu (load {os.getloadavg()[0]:.1f}); of which:")
    for _, _, label in PHASES:
        print(f"  {spent.get(label, 0.0):6.2f} s  {label}")
    steps = [label for _, _, label in PHASES[1:5]]
    layout = spent.get(PHASES[0][2], 0.0) - sum(spent.get(label, 0.0) for label in steps)
    print(f"  {layout:6.2f} s  of the first line, layout itself (boxes placed, lines broken)")


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "--phases"]
    deck = load_deck(Path(args[0]) if args else ROOT / "decks" / "ecologies-bizarre-biomes")
    if "--phases" in sys.argv:
        return phases(deck)
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
