"""A spreadsheet as cardtool reads and writes it: sheets of cell values, and the bounds on reading one."""

from __future__ import annotations

from dataclasses import dataclass, field

MAX_FILE_BYTES = 20 * 1024 * 1024
#: XML inside an XLSX or ODS file, uncompressed: far above a 2,000-card deck (~2 MB), far below a zip bomb.
MAX_XML_BYTES = 100 * 1024 * 1024
MAX_ROWS = 5_000  # a deck holds at most 2,000 different cards
MAX_COLUMNS = 200
MAX_SHEETS = 50


class SheetFileError(Exception):
    """A spreadsheet file that cannot be read (or written) as asked; the message says why."""


@dataclass
class Sheet:
    """One sheet: its title and rows of cell values (the header first), and which cells hold formulas."""

    title: str
    rows: list[list[object]]
    formulas: set[tuple[int, int]] = field(default_factory=set)  # (row, column), 1-based
