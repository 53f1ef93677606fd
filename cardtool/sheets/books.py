"""Reading and writing spreadsheet files: CSV (one file a sheet), XLSX (openpyxl) and ODS (odsbook.py).

A spreadsheet is untrusted like a deck: it is read with bounds on its size, rows, columns and the XML
inside it (openpyxl reads through defusedxml), a formula is never evaluated (it is reported), and every
problem is a SheetFileError with a message for the user, never a traceback.
"""

from __future__ import annotations

import csv
import io
import zipfile
from pathlib import Path

from cardtool.sheets.cells import csv_text, from_csv_text
from cardtool.sheets.grid import (MAX_COLUMNS, MAX_FILE_BYTES, MAX_ROWS, MAX_SHEETS, MAX_XML_BYTES, Sheet,
                                  SheetFileError)

FORMATS = ("csv", "xlsx", "ods")


def format_of(path: Path) -> str:
    """The format a file name says: .csv, .xlsx or .ods."""
    suffix = path.suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        raise SheetFileError(f"'{path.name}' is not a .csv, .xlsx or .ods file")
    return suffix


# -- writing ----------------------------------------------------------------------------------------
def write(sheets: list[Sheet], fmt: str, out: Path) -> list[Path]:
    """Write the sheets: into the folder out for csv (one file a sheet), else the file out. Returns paths."""
    if fmt == "csv":
        out.mkdir(parents=True, exist_ok=True)
        written = []
        for sheet in sheets:
            path = out / f"{sheet.title.lower()}.csv"
            buffer = io.StringIO()
            writer = csv.writer(buffer, lineterminator="\n")
            for row in sheet.rows:
                writer.writerow([csv_text(v) for v in row])
            path.write_text(buffer.getvalue(), encoding="utf-8")
            written.append(path)
        return written
    out.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "xlsx":
        _write_xlsx(sheets, out)
    else:
        from cardtool.sheets.odsbook import write_ods

        write_ods(sheets, out)
    return [out]


def _write_xlsx(sheets: list[Sheet], out: Path) -> None:
    from openpyxl import Workbook
    from openpyxl.styles import Font
    from openpyxl.utils.exceptions import IllegalCharacterError

    book = Workbook()
    book.remove(book.active)
    for sheet in sheets:
        page = book.create_sheet(sheet.title)
        for r, row in enumerate(sheet.rows, start=1):
            for c, value in enumerate(row, start=1):
                if value is None:
                    continue
                cell = page.cell(row=r, column=c)
                try:
                    cell.value = value
                except IllegalCharacterError:
                    raise SheetFileError(f"sheet {sheet.title}, row {r}: a value holds a control character that "
                                         "XLSX cannot store; export as csv or ods") from None
                if isinstance(value, str):
                    cell.data_type = "s"  # text, never a formula, whatever it starts with
                    cell.quotePrefix = value.startswith(("=", "+", "-", "@"))
                if r == 1:
                    cell.font = Font(bold=True)
        page.freeze_panes = "B2"
    book.save(out)


# -- reading ----------------------------------------------------------------------------------------
def read(path: Path) -> list[Sheet]:
    """Every sheet of a .xlsx or .ods file, or the one sheet of a .csv file (titled by its name)."""
    fmt = format_of(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise SheetFileError(f"cannot read it: {exc.strerror or exc}") from None
    if not path.is_file():
        raise SheetFileError("not a regular file")
    if size > MAX_FILE_BYTES:
        raise SheetFileError(f"the file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB, far more than any "
                             "deck's cards take")
    if fmt == "csv":
        return [_read_csv(path)]
    _check_zip(path)
    if fmt == "xlsx":
        return _read_xlsx(path)
    from cardtool.sheets.odsbook import read_ods

    return read_ods(path)


def _check_zip(path: Path) -> None:
    """An XLSX or ODS file is a zip of XML: refuse one whose XML would unpack beyond any deck's size."""
    try:
        with zipfile.ZipFile(path) as archive:
            total = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise SheetFileError(f"not a readable {path.suffix} file ({exc})") from None
    if total > MAX_XML_BYTES:
        raise SheetFileError(f"its contents unpack to {total:,} bytes, more than any deck's cards take "
                             f"({MAX_XML_BYTES:,}); it was not read")


def _bounded(rows, title: str, columns: bool = True):
    for r, row in enumerate(rows, start=1):
        if r > MAX_ROWS:
            raise SheetFileError(f"sheet {title} has more than {MAX_ROWS:,} rows; a deck has at most 2,000 cards")
        if columns and len(row) > MAX_COLUMNS:
            raise SheetFileError(f"sheet {title} has more than {MAX_COLUMNS} columns")
        yield row


def _read_csv(path: Path) -> Sheet:
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SheetFileError(f"the file is not UTF-8 text (byte {exc.start + 1}); save it as CSV UTF-8") from None
    csv.field_size_limit(MAX_FILE_BYTES)
    try:
        rows = [[from_csv_text(v) for v in row] for row in _bounded(csv.reader(io.StringIO(text, newline="")),
                                                                    path.stem)]
    except csv.Error as exc:
        raise SheetFileError(f"not readable as CSV: {exc}") from None
    return Sheet(path.stem, rows)


def _read_xlsx(path: Path) -> list[Sheet]:
    from openpyxl import load_workbook

    try:
        book = load_workbook(path, read_only=True, data_only=False)
    except Exception as exc:  # openpyxl raises many kinds for a damaged file: all are the file's fault
        raise SheetFileError(f"not a readable .xlsx file ({type(exc).__name__}: {exc})") from None
    sheets = []
    try:
        if len(book.sheetnames) > MAX_SHEETS:
            raise SheetFileError(f"it has more than {MAX_SHEETS} sheets")
        for page in book.worksheets:
            sheet = Sheet(page.title, [])
            rows = page.iter_rows(max_row=MAX_ROWS + 1, max_col=MAX_COLUMNS + 1)
            for r, row in enumerate(_bounded(rows, page.title, columns=False), start=1):
                values = []
                for c, cell in enumerate(row, start=1):
                    value = getattr(cell, "value", None)
                    if getattr(cell, "data_type", None) == "f":
                        sheet.formulas.add((r, c))
                    values.append(value if isinstance(value, (str, int, float, bool)) or value is None
                                  else str(value))
                while values and values[-1] is None:  # read-only rows are padded to max_col
                    values.pop()
                if len(values) > MAX_COLUMNS:
                    raise SheetFileError(f"sheet {page.title} has more than {MAX_COLUMNS} columns")
                sheet.rows.append(values)
            sheets.append(sheet)
    except SheetFileError:
        raise
    except Exception as exc:
        raise SheetFileError(f"not a readable .xlsx file ({type(exc).__name__}: {exc})") from None
    finally:
        book.close()
    return sheets
