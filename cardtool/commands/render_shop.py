"""`cardtool render shop` (files a print shop takes, preflighted) and `cardtool render tts` (a Tabletop
Simulator deck): subcommands of `cardtool render`, registered by commands/render.py."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from cardtool.commands.common import add_deck_argument, deck_from

SHOP_EXAMPLES = """\
examples:
  cardtool render shop decks/symbiosis --shop drivethrucards        # build/<deck>/shop-drivethrucards/
  cardtool render shop decks/symbiosis --shop thegamecrafter --out uploads/tgc
  cardtool render shop decks/symbiosis --shop generic --only spring-frog-3
  cardtool render tts decks/symbiosis                                 # build/<deck>/tts/
"""


def add_parsers(targets, selection) -> None:
    """Add `shop` and `tts` to render's subcommands; selection(parser) adds --only/--own."""
    from cardtool.render.shop.presets import ALIASES, PRESETS

    fmt = argparse.RawDescriptionHelpFormatter
    shop = targets.add_parser("shop", help="the files a print shop takes (PNGs or a PDF/X), with a preflight "
                              "report of them", formatter_class=fmt, epilog=SHOP_EXAMPLES)
    add_deck_argument(shop)
    shop.add_argument("--shop", required=True, metavar="NAME",
                      help="; ".join(f"{p.name}: {p.title}" for p in PRESETS.values())
                      + f" (short names: {', '.join(f'{a}={n}' for a, n in ALIASES.items())})")
    shop.add_argument("--cmyk-profile", metavar="FILE.icc", type=Path,
                      help="ICC CMYK output profile for a CMYK shop (default: $CARDTOOL_CMYK_PROFILE, else the "
                           "SWOP profile Debian's ghostscript package installs)")
    selection(shop)
    shop.add_argument("--out", metavar="DIR", type=Path, help="the folder to fill (default "
                      "build/<deck-id>/shop-<shop>)")

    tts = targets.add_parser("tts", help="a Tabletop Simulator deck: face sheets (10 x 7 at most, 4096 px), a back "
                             "and a saved object to load", formatter_class=fmt, epilog=SHOP_EXAMPLES)
    add_deck_argument(tts)
    tts.add_argument("--card", default="poker", metavar="SIZE", help="card size, as for 'render cards'")
    tts.add_argument("--url-base", metavar="URL", help="where the images will be uploaded (e.g. "
                     "https://example.org/mydeck/); the JSON then names them there instead of as local files")
    selection(tts)
    tts.add_argument("--out", metavar="DIR", type=Path, help="the folder to fill (default build/<deck-id>/tts)")


def run_shop(args: argparse.Namespace, only) -> int:
    """Write the shop's files and their preflight report; exit 1 when the preflight fails."""
    from cardtool.render.shop.presets import preset
    from cardtool.render.shop.writers import REPORT, shop_files

    chosen = preset(args.shop)
    deck = deck_from(args)
    out = args.out or Path("build") / deck.manifest.id / f"shop-{chosen.name}"
    from cardtool.render.output import check_out_folder

    check_out_folder(out, reads=(Path(args.deck),))
    started = time.perf_counter()
    result = shop_files(deck, chosen, only(args, deck), out, reads=(Path(args.deck),), profile=args.cmyk_profile)
    what = (f"{result.pages} PNG files of {chosen.pixels[0]} x {chosen.pixels[1]} px and quantities.csv"
            if chosen.output == "png-files" else f"cards.pdf, {result.pages} pages (front, back for each of "
            f"{result.cards} cards)")
    print(f"{out}/: {what} for {chosen.title.split(':')[0]} ({time.perf_counter() - started:.1f} s)")
    report = result.report
    for finding in report.findings[:20]:
        print("  " + finding.format())
    if len(report.findings) > 20:
        print(f"  ... {len(report.findings) - 20} more in {out / REPORT}")
    print(f"preflight {'passed' if report.ok else 'FAILED'}: {len(report.checked)} checks, "
          f"{len(report.findings)} problem(s); report in {out / REPORT}")
    return 0 if report.ok else 1


def run_tts(args: argparse.Namespace, only) -> int:
    from cardtool.render.output import check_out_folder
    from cardtool.render.sheets import parse_card_size
    from cardtool.render.tts import tts_export

    card = parse_card_size(args.card)
    deck = deck_from(args)
    out = args.out or Path("build") / deck.manifest.id / "tts"
    check_out_folder(out, reads=(Path(args.deck),))
    started = time.perf_counter()
    export = tts_export(deck, card, only(args, deck), out, args.url_base, reads=(Path(args.deck),))
    grids = ", ".join(f"{s.file} {s.columns} x {s.rows}" for s in export.sheets)
    print(f"{out}/: {export.saved_object} ({export.copies} cards), {grids} of {export.cell_size[0]} x "
          f"{export.cell_size[1]} px cards ({time.perf_counter() - started:.1f} s)")
    print("Copy the .json and its .png into Tabletop Simulator's 'Saves/Saved Objects' folder and load it from "
          "Objects > Saved Objects" + ("" if args.url_base else "; the images are named by their place on this "
                                       "computer (give --url-base to share the deck)."))
    return 0
