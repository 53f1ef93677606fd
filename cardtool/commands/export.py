"""`cardtool export`: a deck's own cards as a spreadsheet (CSV, XLSX or ODS), one sheet per kind."""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

from cardtool.errors import UsageError

NAME = "export"
HELP = "write a deck's cards as a spreadsheet (csv, xlsx or ods), one sheet per kind, to edit and import back"
EXAMPLES = """\
examples:
  cardtool export decks/ecologies-bizarre-biomes --format xlsx     # build/ecologies-bizarre-biomes/sheets/cards.xlsx
  cardtool export decks/symbiosis --format ods --out symbiosis.ods
  cardtool export decks/frozen-and-deep --format csv --out sheets/  # one CSV file per kind
  cardtool import decks/ecologies-bizarre-biomes build/ecologies-bizarre-biomes/sheets/cards.xlsx
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("deck", metavar="DECK", help="deck folder (or its deck.yaml)")
    parser.add_argument("--format", choices=("csv", "xlsx", "ods"), default="xlsx",
                        help="xlsx (Excel, default), ods (LibreOffice) or csv (one file per kind)")
    parser.add_argument("--out", metavar="DIR|FILE", type=Path,
                        help="where to write: a .xlsx/.ods file or a folder (default build/<deck>/sheets/)")


def _target(args, deck_id: str) -> Path:
    out = args.out if args.out is not None else Path("build") / deck_id / "sheets"
    if args.format == "csv":
        if out.suffix.lower() in (".csv", ".xlsx", ".ods") and not out.is_dir():
            raise UsageError(f"--out {out}: csv writes one file per kind into a folder; give a folder")
        return out
    if out.is_dir() or out.suffix.lower() != f".{args.format}":
        if out.suffix and not out.is_dir():
            raise UsageError(f"--out {out}: a {args.format} file's name ends in .{args.format}")
        out = out / f"cards.{args.format}"
    return out


def _check(out: Path, fmt: str) -> None:
    from cardtool.render.output import deck_folder_around

    deck = deck_folder_around(out if out.is_dir() else out.parent)
    if deck is not None:
        raise UsageError(f"--out {out} lies inside the deck folder {deck}: cardtool never writes into a deck "
                         "folder; give an output outside it")
    if fmt != "csv" and out.is_file():
        with out.open("rb") as existing:
            if existing.read(2) not in (b"PK", b""):
                raise UsageError(f"--out {out} exists and is not a spreadsheet, so cardtool will not replace it")
    if fmt == "csv" and out.is_dir():
        strangers = [p.name for p in out.iterdir()
                     if p.suffix.lower() not in (".csv", ".xlsx", ".ods") and not p.name.startswith(".")]
        if strangers:
            raise UsageError(f"--out {out} holds other files ({', '.join(sorted(strangers)[:3])}); give a new "
                             "folder or one of CSV files")


def run(args: argparse.Namespace) -> int:
    from cardtool.sheets.books import SheetFileError, write
    from cardtool.sheets.deckfiles import make_sheets, read_own

    own = read_own(Path(args.deck), require_valid=True)
    sheets = make_sheets(own)
    out = _target(args, own.deck_id)
    _check(out, args.format)
    try:
        if args.format == "csv":
            written = write(sheets, "csv", out)
        else:
            out.parent.mkdir(parents=True, exist_ok=True)
            handle, temp = tempfile.mkstemp(prefix=".cards.", suffix=out.suffix, dir=out.parent)
            os.close(handle)
            try:
                write(sheets, args.format, Path(temp))
                os.chmod(temp, 0o644)
                os.replace(temp, out)
            finally:
                Path(temp).unlink(missing_ok=True)
            written = [out]
    except SheetFileError as exc:
        raise UsageError(f"cannot export: {exc}") from None
    except OSError as exc:
        raise UsageError(f"cannot write --out {out}: {exc.strerror or exc}") from None
    rows = sum(len(s.rows) - 1 for s in sheets)
    print(f"wrote {rows} cards of {own.deck_id} in {len(sheets)} sheet(s) "
          f"({', '.join(s.title for s in sheets)}):")
    for path in written:
        print(f"  {path}")
    print(f"edit, then: cardtool import {args.deck} {' '.join(str(p) for p in written)}")
    return 0
