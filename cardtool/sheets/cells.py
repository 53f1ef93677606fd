"""How a card field becomes a spreadsheet cell, and how a cell is read back as a field.

A text, number or true/false is one cell; a list of plain values is joined with "; " (an empty list is
written `[]`); a nested value (a biome's bonus, a factor's effects, a Symbiosis scoring rule) is written as
JSON. An absent field is an empty cell. Reading uses the type the field had, so a cell nobody edited
reads back as exactly the value it came from.
"""

from __future__ import annotations

import json

from cardtool.issues import Location

LIST_SEPARATOR = "; "
EMPTY_LIST = "[]"
#: Longest text a cell may hold on import; a card's longest field (flavour, effect text) is 5,000 characters.
MAX_CELL_CHARS = 20_000
#: Cells starting with these are formulas in Excel, LibreOffice and Google Sheets (and "'" marks text in
#: CSV, so it is doubled to survive the round trip).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "'")


class CellError(ValueError):
    """A cell that cannot be read as the field's value; args: (code, message)."""


class CellLocation(Location):
    """A spreadsheet cell: `cards.xlsx:Organisms!C12`, or `organisms.csv!C12` for a CSV file."""

    def __init__(self, file, row: int, column: int, sheet: str = ""):
        super().__init__(file, row, column)
        object.__setattr__(self, "sheet", sheet)

    def __str__(self) -> str:
        where = f"{self.file}:{self.sheet}" if self.sheet else f"{self.file}"
        return f"{where}!{column_letters(self.column)}{self.line}"

    def __reduce__(self):
        return (CellLocation, (self.file, self.line, self.column, self.sheet))


def column_letters(column: int) -> str:
    """1 -> A, 27 -> AA."""
    letters = ""
    while column > 0:
        column, rest = divmod(column - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters or "A"


def is_plain(value: object) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def encode(value: object) -> str | int | float | bool | None:
    """A field's value as a cell: None for an absent field."""
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if isinstance(value, list) and all(isinstance(v, str) and LIST_SEPARATOR.strip() not in v for v in value):
        return LIST_SEPARATOR.join(value) if value else EMPTY_LIST
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def csv_text(value: str | int | float | bool | None) -> str:
    """A cell as CSV text: text a spreadsheet would read as a formula gets a leading apostrophe."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return "'" + value if value.startswith(FORMULA_STARTS) else value
    return str(value)


def from_csv_text(text: str) -> str:
    """CSV text back to the cell's text (one leading apostrophe removed)."""
    return text[1:] if text.startswith("'") else text


def _number(cell: object) -> int | float | None:
    if isinstance(cell, bool):
        return None
    if isinstance(cell, int):
        return cell
    if isinstance(cell, float):
        return int(cell) if cell.is_integer() else cell
    if isinstance(cell, str):
        text = cell.strip()
        try:
            return int(text)
        except ValueError:
            try:
                number = float(text)
            except ValueError:
                return None
            return int(number) if number.is_integer() else number
    return None


def _text(cell: object) -> str:
    if isinstance(cell, bool):
        return "true" if cell else "false"
    if isinstance(cell, float) and cell.is_integer():
        return str(int(cell))
    return str(cell)


def decode(cell: object, like: object, missing: bool) -> object:
    """The field value a cell holds, read as the type of `like` (the field's old value, or a value of the
    same field on another card when missing). Returns `...` for a field to remove (an emptied cell)."""
    if isinstance(cell, str) and len(cell) > MAX_CELL_CHARS:
        raise CellError("too-large", f"the cell holds {len(cell):,} characters, more than any card field "
                                     f"takes ({MAX_CELL_CHARS:,})")
    empty = cell is None or (isinstance(cell, str) and cell == "")
    if empty:
        if missing or like == "":
            return like if not missing else ...
        return ...
    if isinstance(like, bool):
        text = _text(cell).strip().lower()
        if text in ("true", "yes", "1"):
            return True
        if text in ("false", "no", "0"):
            return False
        return _text(cell)  # the schema says what was wanted
    if isinstance(like, (int, float)) and not isinstance(like, bool):
        number = _number(cell)
        return _text(cell) if number is None else number
    if isinstance(like, list) and all(is_plain(v) for v in like) and not (
            isinstance(cell, str) and cell.lstrip().startswith(("[{", "{"))):
        text = _text(cell).strip()
        if text == EMPTY_LIST:
            return []
        if text.startswith("[") and text.endswith("]"):
            return _json(text)
        items = [part.strip() for part in text.split(LIST_SEPARATOR.strip())]
        numeric = bool(like) and all(isinstance(v, int) and not isinstance(v, bool) for v in like)
        return [(_number(i) if numeric and _number(i) is not None else i) for i in items if i != ""]
    if isinstance(like, (list, dict)):
        return _json(_text(cell))
    if like is None:  # a field no card of the sheet has yet: a number stays a number, the schema checks
        number = _number(cell)
        if isinstance(cell, bool):
            return cell
        return number if number is not None else _text(cell)
    return _text(cell)


def _json(text: str) -> object:
    try:
        return json.loads(text)
    except ValueError as exc:
        raise CellError("bad-value", f"the cell should hold JSON (as export wrote it), but {exc.msg} at "
                                     f"character {exc.pos + 1}") from None

