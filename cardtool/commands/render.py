"""`cardtool render`: print-and-play sheets, card images, the rulebook and a duplex alignment test."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from cardtool.commands import render_shop
from cardtool.commands.common import add_deck_argument, deck_from, file_path
from cardtool.errors import DeckError, UnknownCardError, UsageError
from cardtool.render.output import check_out_file, check_out_folder, write_file
from cardtool.render.sheets import (CUT_MODES, DUPLEX_MODES, PAPERS, SheetSpec, parse_card_size, parse_length,
                                    parse_offset, parse_paper)
from cardtool.suggest import did_you_mean

NAME = "render"
HELP = "print a deck: card sheets (PDF), card images (PNG), the rulebook (PDF), a duplex alignment test"
EXAMPLES = """\
examples:
  cardtool render cards decks/ecologies-bizarre-biomes                    # build/<deck>/cards.pdf
  cardtool render cards decks/symbiosis --paper letter --duplex short --back-offset 0.5,-1
  cardtool render cards decks/ecologies-bizarre-biomes --only coyote,wildfire --bleed 0 --gutter 2
  cardtool render images decks/symbiosis --dpi 300                        # build/<deck>/images/*.png
  cardtool render rulebook decks/ecologies-bizarre-biomes                 # build/<deck>/rulebook.pdf
  cardtool render rulebook decks/frozen-and-deep --insert                 # the expansion's insert
  cardtool render alignment --paper letter --duplex long                  # build/alignment.pdf
"""

POD_BLEED = "1/8in"  # what print-on-demand shops ask for: a poker card is then 825 x 1125 px at 300 dpi


def add_sheet_options(parser: argparse.ArgumentParser, *, deck_options: bool = True) -> None:
    """The options every sheet shares (cards, alignment, build)."""
    parser.add_argument("--paper", default="a4", metavar="PAPER",
                        help=f"paper size: {' or '.join(PAPERS)} (default a4)")
    parser.add_argument("--card", default="poker", metavar="SIZE",
                        help="card size: poker, bridge, mini, tarot, or WxH such as 63x88mm or 2.5x3.5in "
                             "(default poker)")
    parser.add_argument("--bleed", default="3mm", metavar="LENGTH",
                        help="background printed beyond each cut edge, e.g. 3mm or 1/8in (default 3mm)")
    parser.add_argument("--gutter", default="0", metavar="MM",
                        help="space between neighbouring cards in mm (default 0: bleeds touch)")
    parser.add_argument("--crop-marks", action=argparse.BooleanOptionalAction, default=True,
                        help="draw cut marks in the margins, in line with every cut (default on; "
                             "--no-crop-marks fits more cards when they do not fit otherwise)")
    parser.add_argument("--duplex", choices=DUPLEX_MODES, default="long",
                        help="how the printer turns the sheet over: long edge (default), short edge, or none "
                             "(no backs pages)")
    parser.add_argument("--cuts", choices=CUT_MODES, default="auto",
                        help="shared: neighbouring cards share one cut, bleed only around the block (9 poker "
                             "cards on A4 or Letter); separate: every card keeps its bleed, two cuts between "
                             "neighbours; auto (default): whichever fits more cards a page")
    parser.add_argument("--back-offset", default="0,0", metavar="X,Y",
                        help="move the backs pages by X,Y mm (right and down as a backs page is seen) to undo "
                             "a printer's drift; measure it with 'cardtool render alignment'")


def sheet_spec(args: argparse.Namespace) -> SheetSpec:
    return SheetSpec(paper=parse_paper(args.paper), card=parse_card_size(args.card),
                     bleed=parse_length(args.bleed, what="bleed"), gutter=parse_length(args.gutter, what="gutter"),
                     crop_marks=args.crop_marks, duplex=args.duplex, back_offset=parse_offset(args.back_offset),
                     cuts="separate" if args.cuts == "auto" and parse_length(args.gutter) > 0 else args.cuts)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    targets = parser.add_subparsers(dest="target", metavar="WHAT", required=True)
    fmt = argparse.RawDescriptionHelpFormatter

    cards = targets.add_parser("cards", help="a print-and-play PDF: sheets of cards with bleed, crop marks and "
                               "a backs page after each fronts page", formatter_class=fmt, epilog=EXAMPLES)
    add_deck_argument(cards)
    add_sheet_options(cards)
    _add_selection(cards)
    cards.add_argument("--out", metavar="FILE", type=file_path,
                       help="the PDF to write (default build/<deck-id>/cards.pdf)")
    cards.add_argument("--no-cache", dest="cache", action="store_false",
                       help="lay out every face anew instead of reusing the faces kept in the output folder's "
                            ".cardtool-cache (the one `cardtool build` keeps)")

    images = targets.add_parser("images", help="one PNG per card face and back, with bleed, for print-on-demand "
                                "shops, and a contact sheet", formatter_class=fmt, epilog=EXAMPLES)
    add_deck_argument(images)
    images.add_argument("--dpi", type=int, default=300, help="pixels per inch (default 300)")
    images.add_argument("--card", default="poker", metavar="SIZE", help="card size, as for 'render cards'")
    images.add_argument("--bleed", default=POD_BLEED, metavar="LENGTH",
                        help=f"bleed around each image (default {POD_BLEED}, what print shops ask for)")
    _add_selection(images)
    images.add_argument("--out", metavar="DIR", type=Path, help="the folder to fill (default build/<deck-id>/images)")

    rulebook = targets.add_parser("rulebook", help="the rulebook PDF, generated from the deck's data and its "
                                  "Markdown sections", formatter_class=fmt, epilog=EXAMPLES)
    add_deck_argument(rulebook)
    rulebook.add_argument("--paper", default="a4", metavar="PAPER", help="a4 or letter (default a4)")
    rulebook.add_argument("--insert", action="store_true",
                          help="for an expansion: its rulebook insert, the pages to keep with the base game's "
                               "rulebook (its own sections and cards, what it changes in the base set), drawn "
                               "from the deck combined with its base")
    rulebook.add_argument("--out", metavar="FILE", type=file_path,
                          help="the PDF to write (default build/<deck-id>/rulebook.pdf, with --insert "
                               "rulebook-insert.pdf)")

    alignment = targets.add_parser("alignment", help="a two-sided test sheet to measure the --back-offset your "
                                   "printer needs", formatter_class=fmt, epilog=EXAMPLES)
    add_sheet_options(alignment)
    alignment.add_argument("--out", metavar="FILE", type=file_path,
                           help="the PDF to write (default build/alignment.pdf)")
    render_shop.add_parsers(targets, _add_selection)  # shop and tts: commands/render_shop.py


def run(args: argparse.Namespace) -> int:
    if args.target in ("shop", "tts"):
        return getattr(render_shop, f"run_{args.target}")(args, _only)
    return {"cards": run_cards, "images": run_images, "rulebook": run_rulebook,
            "alignment": run_alignment}[args.target](args)


def _add_selection(parser: argparse.ArgumentParser) -> None:
    """--only and --own: which of the deck's cards to render."""
    parser.add_argument("--only", metavar="ID,...", help="only these cards (comma-separated ids)")
    parser.add_argument("--own", action="store_true",
                        help="only the cards this deck defines itself, and for an expansion every base card whose "
                             "printed face differs in the combined game (an update pack: replace those)")


def _only(args: argparse.Namespace, deck) -> str | None:
    """The --only list, checked against the deck, or with --own the update pack's cards: those the deck
    defines itself and, for an expansion, the base cards it reprints (render/update_pack.py)."""
    if not args.own:
        if args.only is not None:
            check_only(args.only, deck)
        return args.only
    if args.only:
        raise UsageError("--own and --only exclude each other: list the cards with --only alone")
    from cardtool.render.update_pack import update_pack

    pack = update_pack(deck)
    if not pack.ids:
        raise UsageError(f"--own: deck '{deck.manifest.id}' defines no cards of its own and changes none of its "
                         "bases' printed cards; leave out --own to print them all")
    args.update_pack = pack  # for the summary printed after rendering
    return ",".join(pack.ids)


def _print_pack(args: argparse.Namespace) -> None:
    pack = getattr(args, "update_pack", None)
    if pack is None or not pack.replaced:
        return
    print(f"  update pack: {len(pack.own)} new card(s) and {len(pack.replaced)} reprinted base card(s); "
          "replace these base cards with the new prints:")
    for card in pack.replaced:
        print(f"    {card.card_id} ({card.base}): {card.summary()}")


def check_only(only: str, deck) -> None:
    """Every id --only names must be a card of the deck: else one error naming each, with "did you mean"."""
    wanted = [i.strip() for i in only.split(",") if i.strip()]
    if not wanted:
        raise UsageError("--only needs card ids separated by commas, e.g. --only coyote,wildfire")
    ids = [card.id for card in deck.cards]
    by_name = {card.name.casefold(): card.id for card in deck.cards}
    missing = []
    for card_id in dict.fromkeys(wanted):
        if card_id in ids:
            continue
        if card_id.casefold() in by_name:
            hint = f"did you mean '{by_name[card_id.casefold()]}'? (--only takes ids, not names)"
        else:
            hint = did_you_mean(card_id, ids)
        missing.append(f"'{card_id}'" + (f" ({hint})" if hint else ""))
    if missing:
        examples = "" if any("did you mean" in m for m in missing) else \
            f"; its ids look like {', '.join(repr(i) for i in ids[:3])}"
        raise UnknownCardError(f"--only: deck '{deck.manifest.id}' has no card {', no card '.join(missing)}"
                               f"{examples}; nothing was rendered")


def check_dpi(dpi: int) -> None:
    """--dpi of card images: what print shops ask for is 300; beyond the range images are useless or huge."""
    if not 72 <= dpi <= 1200:
        raise UsageError(f"--dpi {dpi} is out of range: 72 to 1200 (print shops ask for 300)")


def _default(deck, name: str) -> Path:
    return Path("build") / deck.manifest.id / name


def faces_cache(out: Path):
    """The build cache of the folder a cards PDF goes to (render/cache.py), made there if cardtool may
    write in that folder (a new one, or one holding only cardtool's outputs such as build/<deck>/), else
    None: a folder of the user's own files gets no hidden cache."""
    from cardtool.render.cache import BuildCache
    from cardtool.render.output import may_write

    folder = Path(out).parent
    if not may_write(folder):
        return None
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return BuildCache.of(folder)


def run_cards(args: argparse.Namespace) -> int:
    from cardtool.render.cache import using
    from cardtool.render.cards import DeckPrint

    spec = sheet_spec(args)
    deck = deck_from(args)
    out = args.out or _default(deck, "cards.pdf")
    check_out_file(out, "pdf", example="cards.pdf")  # before the work, so a wrong --out fails at once
    started = time.perf_counter()
    deck_print = DeckPrint(deck, spec.card, spec.bleed, _only(args, deck))
    cache = faces_cache(out) if args.cache else None
    with using(cache):
        sheet, pdf = deck_print.sheets(spec)
    write_file(out, pdf, "pdf", example="cards.pdf", command="render cards")
    if cache is not None and deck_print.cards is deck.cards:
        cache.prune(frozenset({"face"}))  # the faces of this deck as it is now; what a build keeps stays
    copies = sum(card.count for card in deck_print.cards)
    pages = sheet.pages(copies)
    backs = f", each followed by its backs page ({spec.duplex}-edge flip)" if spec.duplex != "none" else ", no backs"
    reused = (f"{deck_print.batches[0][0]} faces reused, {deck_print.batches[0][1]} rendered, "
              if cache is not None and deck_print.batches else "")
    print(f"{out}: {copies} cards on {pages} fronts page(s){backs}; {sheet.describe()}"
          f" ({reused}{time.perf_counter() - started:.1f} s)")
    _print_fitted(deck_print)
    _print_pack(args)
    return 0


def run_images(args: argparse.Namespace) -> int:
    from cardtool.render.images import card_images

    card, bleed = parse_card_size(args.card), parse_length(args.bleed, what="bleed")
    check_dpi(args.dpi)
    deck = deck_from(args)
    started = time.perf_counter()
    out = args.out or _default(deck, "images")
    check_out_folder(out, reads=(Path(args.deck),))
    images = card_images(deck, card, bleed, args.dpi, _only(args, deck), out)
    first = images[0]
    print(f"{out}/: {len(images)} PNG images of {first.width} x {first.height} px ({card.label} with "
          f"{bleed:g} mm bleed at {args.dpi} dpi), cards.csv, cards.pdf and contact-sheet.png"
          f" ({time.perf_counter() - started:.1f} s)")
    _print_pack(args)
    return 0


def run_rulebook(args: argparse.Namespace) -> int:
    from cardtool.render.rulebook import rulebook_pdf
    from cardtool.render.rulebook_insert import insert_pdf

    paper = parse_paper(args.paper)
    if args.insert and args.standalone:
        raise UsageError("--insert and --standalone exclude each other: an insert is drawn from the expansion "
                         "combined with its base; --standalone prints the rulebook of a stand-alone expansion")
    deck = _rulebook_deck(args)
    out = args.out or _default(deck, "rulebook-insert.pdf" if args.insert else "rulebook.pdf")
    check_out_file(out, "pdf", example="rulebook.pdf")
    started = time.perf_counter()
    pdf, pages = (insert_pdf if args.insert else rulebook_pdf)(deck, paper)
    write_file(out, pdf, "pdf", example="rulebook.pdf", command="render rulebook")
    print(f"{out}: {pages} pages ({time.perf_counter() - started:.1f} s)")
    return 0


def _rulebook_deck(args: argparse.Namespace):
    """The deck of the rulebook; an expansion that needs its base, taken alone, points at --insert."""
    try:
        return deck_from(args)
    except DeckError as exc:
        codes = {issue.code for issue in exc.report.errors} if exc.report is not None else set()
        if args.standalone and codes & {"needs-base", "no-biome"}:
            raise DeckError(f"{exc}: it is not a stand-alone game, so it has no stand-alone rulebook; "
                            f"'cardtool render rulebook {args.deck} --insert' prints its rulebook insert, drawn "
                            "from the expansion combined with its base", exc.report) from None
        raise


def run_alignment(args: argparse.Namespace) -> int:
    from cardtool.render.alignment import alignment_pdf

    spec = sheet_spec(args)
    sheet, pdf = alignment_pdf(spec)
    out = args.out or Path("build") / "alignment.pdf"
    write_file(out, pdf, "pdf", example="alignment.pdf", command="render alignment")
    print(f"{out}: a fronts page and its backs page; {sheet.describe()}")
    print("Print both pages on one sheet, two-sided, at 100% scale; hold it to a light and read the scales "
          "on the back; pass what they show as --back-offset X,Y.")
    return 0


def _print_fitted(deck_print) -> None:
    for fitted in deck_print.fitted:
        print(f"  note: card {fitted.card_id}: field '{fitted.field}' set at {fitted.size:g} pt "
              f"(layout {fitted.layout_size:g} pt) to fit its box")
