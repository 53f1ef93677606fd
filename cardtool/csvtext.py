"""Text written into CSV files that people open in spreadsheets.

A cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return is read as a formula by Excel,
LibreOffice and Google Sheets; a card name from a shared deck must never become one, so such a cell
is written with a leading apostrophe (the spreadsheets' own mark for "this is text").
"""

from __future__ import annotations

_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_text(value: str) -> str:
    """value as a CSV cell a spreadsheet shows as text, never evaluates."""
    return "'" + value if value.startswith(_FORMULA_STARTS) else value
