"""OpenDocument spreadsheets (.ods, LibreOffice's own format) through odfpy, the library pandas uses."""

from __future__ import annotations

from pathlib import Path

from cardtool.sheets.grid import MAX_COLUMNS, MAX_ROWS, MAX_SHEETS, Sheet, SheetFileError


def write_ods(sheets: list[Sheet], out: Path) -> None:
    from odf import teletype
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    document = OpenDocumentSpreadsheet()
    for sheet in sheets:
        table = Table(name=sheet.title)
        for row in sheet.rows:
            table_row = TableRow()
            for value in row:
                if value is None:
                    cell = TableCell()
                elif isinstance(value, bool):
                    cell = TableCell(valuetype="boolean", booleanvalue="true" if value else "false")
                    cell.addElement(P(text="TRUE" if value else "FALSE"))
                elif isinstance(value, (int, float)):
                    cell = TableCell(valuetype="float", value=repr(value))
                    cell.addElement(P(text=str(value)))
                else:
                    cell = TableCell(valuetype="string")  # text, never a formula
                    paragraph = P()
                    teletype.addTextToElement(paragraph, value)
                    cell.addElement(paragraph)
                table_row.addElement(cell)
            table.addElement(table_row)
        document.spreadsheet.addElement(table)
    document.save(str(out))


def _number(text: str) -> int | float:
    number = float(text)
    return int(number) if number.is_integer() and "." not in text and "e" not in text.lower() else number


def _cell_value(cell, P, teletype) -> object:
    kind = cell.getAttribute("valuetype")
    if kind == "float":
        return _number(cell.getAttribute("value") or "0")
    if kind == "boolean":
        return (cell.getAttribute("booleanvalue") or "").lower() == "true"
    texts = [teletype.extractText(p) for p in cell.getElementsByType(P)]
    text = "\n".join(texts)
    return text if texts else None


def read_ods(path: Path) -> list[Sheet]:
    """Every sheet of an .ods file; a damaged or hostile one is a SheetFileError."""
    try:
        return _read(path)
    except SheetFileError:
        raise
    except Exception as exc:  # odfpy meets a malformed file in many ways: each is the file's fault
        raise SheetFileError(f"not a readable .ods file ({type(exc).__name__}: {exc})") from None


def _read(path: Path) -> list[Sheet]:
    from odf import teletype
    from odf.opendocument import load
    from odf.table import Table, TableRow
    from odf.text import P

    try:
        document = load(str(path))
    except Exception as exc:  # a damaged file raises whatever the XML or zip reader meets: the file's fault
        raise SheetFileError(f"not a readable .ods file ({type(exc).__name__}: {exc})") from None
    tables = document.spreadsheet.getElementsByType(Table) if document.spreadsheet else []
    if len(tables) > MAX_SHEETS:
        raise SheetFileError(f"it has more than {MAX_SHEETS} sheets")
    sheets = []
    for table in tables:
        title = table.getAttribute("name") or "Sheet"
        sheet = Sheet(title, [])
        pending_blank = 0  # empty rows are counted, and kept only when a filled row follows
        for table_row in table.getElementsByType(TableRow):
            values: list[object] = []
            for cell in table_row.childNodes:
                if cell.qname[1] not in ("table-cell", "covered-table-cell"):
                    continue
                repeat = int(cell.getAttribute("numbercolumnsrepeated") or 1)
                value = _cell_value(cell, P, teletype)
                if cell.getAttribute("formula"):
                    sheet.formulas.add((len(sheet.rows) + pending_blank + 1, len(values) + 1))
                    value = value if value is not None else ""
                if value is None and repeat > MAX_COLUMNS:
                    repeat = 0  # LibreOffice pads rows with one cell repeated to the sheet's last column
                values.extend([value] * min(repeat, MAX_COLUMNS + 1))
                if len(values) > MAX_COLUMNS and any(v is not None for v in values[MAX_COLUMNS:]):
                    raise SheetFileError(f"sheet {title} has more than {MAX_COLUMNS} columns")
            while values and values[-1] is None:
                values.pop()
            repeat = int(table_row.getAttribute("numberrowsrepeated") or 1)
            if not values:
                pending_blank += repeat
                continue
            if len(sheet.rows) + pending_blank + repeat > MAX_ROWS:
                raise SheetFileError(f"sheet {title} has more than {MAX_ROWS:,} rows; a deck has at most "
                                     "2,000 cards")
            sheet.rows.extend([[] for _ in range(pending_blank)])
            pending_blank = 0
            sheet.rows.extend(list(values) for _ in range(repeat))
        sheets.append(sheet)
    return sheets
