"""`cardtool export` / `cardtool import`: spreadsheets of a deck's cards, merged back byte for byte."""

from __future__ import annotations

import csv
import shutil
import zipfile

import pytest

from tests.conftest import DECKS

SHIPPED = sorted(p.name for p in DECKS.iterdir() if (p / "deck.yaml").is_file())


def _files(folder):
    return {p.relative_to(folder): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def decks(tmp_path):
    """A copy of the shipped decks (expansions keep their bases beside them)."""
    shutil.copytree(DECKS, tmp_path / "decks")
    return tmp_path / "decks"


@pytest.mark.parametrize("fmt", ["csv", "xlsx", "ods"])
@pytest.mark.parametrize("deck", SHIPPED)
def test_round_trip_without_edits_changes_no_byte(deck, fmt, decks, tmp_path, run_cli):
    before = _files(decks)
    out = tmp_path / "out" / ("sheets" if fmt == "csv" else f"cards.{fmt}")
    code, text, err = run_cli("export", decks / deck, "--format", fmt, "--out", out)
    assert code == 0, err
    sheets = sorted(out.glob("*.csv")) if fmt == "csv" else [out]
    code, text, err = run_cli("import", decks / deck, *sheets)
    assert code == 0, text + err
    assert "no changes" in text
    assert _files(decks) == before


def _xlsx_edit(path, sheet, card, **fields):
    from openpyxl import load_workbook

    book = load_workbook(path)
    page = book[sheet]
    header = [c.value for c in page[1]]
    for row in page.iter_rows(min_row=2):
        if row[0].value == card:
            for name, value in fields.items():
                if name not in header:
                    header.append(name)
                    page.cell(1, len(header)).value = name
                page.cell(row[0].row, header.index(name) + 1).value = value
    book.save(path)


def test_an_xlsx_edit_changes_only_its_lines_and_keeps_comments(decks, tmp_path, run_cli):
    deck = decks / "ecologies-bizarre-biomes"
    out = tmp_path / "cards.xlsx"
    assert run_cli("export", deck, "--out", out)[0] == 0
    _xlsx_edit(out, "Organisms", "cave-amphipod", name="Cave Amphipod II", vp="1 1/2")
    before = (deck / "organisms" / "cave.yaml").read_text().splitlines()
    code, text, err = run_cli("import", deck, out)
    assert code == 0, text + err
    assert "cave-amphipod: name, vp" in text
    after = (deck / "organisms" / "cave.yaml").read_text().splitlines()
    changed = [(a, b) for a, b in zip(before, after) if a != b]
    assert len(before) == len(after) and len(changed) == 2
    assert any("Cave Amphipod II" in b for _, b in changed)
    assert run_cli("validate", deck)[0] == 0


def test_csv_edit_of_a_list_and_a_new_row(decks, tmp_path, run_cli):
    deck = decks / "symbiosis"
    out = tmp_path / "sheets"
    assert run_cli("export", deck, "--format", "csv", "--out", out)[0] == 0
    (sheet,) = out.glob("*.csv")
    rows = list(csv.reader(sheet.open(encoding="utf-8")))
    header = rows[0]
    first = dict(zip(header, rows[1]))
    rows[1][header.index("name")] = "Spawning Run Reborn"
    new = list(rows[1])
    new[header.index("id")] = "spring-fish-9"
    new[header.index("name")] = "Big Spawning"
    rows.append(new)
    with sheet.open("w", encoding="utf-8", newline="") as stream:
        csv.writer(stream, lineterminator="\n").writerows(rows)
    code, text, err = run_cli("import", deck, sheet)
    assert code == 0, text + err
    assert "spring-fish-9: new card" in text and f"{first['id']}: name" in text
    code, text, _ = run_cli("cards", deck, "--format", "json")
    assert "Big Spawning" in text and "Spawning Run Reborn" in text


def test_errors_point_at_the_cell_with_validate_codes_and_change_nothing(decks, tmp_path, run_cli):
    deck = decks / "ecologies-bizarre-biomes"
    out = tmp_path / "cards.xlsx"
    assert run_cli("export", deck, "--out", out)[0] == 0
    _xlsx_edit(out, "Organisms", "cave-isopod", eats="sulfur-oxidizing-bacteria; green-alga", count="three")
    before = _files(deck)
    code, text, _ = run_cli("import", deck, out)
    assert code == 1
    assert f"{out}:Organisms!" in text and "error[bad-type]" in text and "count" in text
    assert _files(deck) == before
    _xlsx_edit(out, "Organisms", "cave-isopod", count=2)
    code, text, _ = run_cli("import", deck, out)
    assert code == 1 and "error[unknown-ref]" in text and "did you mean 'green-algae'" in text
    line = next(l for l in text.splitlines() if "unknown-ref" in l)
    assert line.startswith(f"{out}:Organisms!") and line.split("!")[1].split(":")[0][0].isalpha()
    assert _files(deck) == before  # the deck would not validate, so it was put back


def test_hostile_sheets_get_located_errors_never_a_traceback(decks, tmp_path, run_cli):
    from openpyxl import load_workbook

    deck = decks / "ecologies-bizarre-biomes"
    out = tmp_path / "cards.xlsx"
    assert run_cli("export", deck, "--out", out)[0] == 0
    book = load_workbook(out)
    page = book["Organisms"]
    page["C2"] = "=HYPERLINK(\"http://example.com\", \"x\")"  # a formula
    page["J3"] = "x" * 50_000  # a huge cell
    book.save(out)
    before = _files(deck)
    code, text, err = run_cli("import", deck, out)
    assert code == 1 and "Traceback" not in text + err
    assert f"{out}:Organisms!C2: error[bad-value]" in text and "formula" in text
    assert f"{out}:Organisms!J3: error[too-large]" in text
    junk = tmp_path / "junk.xlsx"
    junk.write_bytes(b"PK\x03\x04 not really a zip")
    ods = tmp_path / "junk.ods"
    ods.write_bytes(b"nothing")
    many = tmp_path / "organisms.csv"
    many.write_text("id,name\n" + "a,b\n" * 6000, encoding="utf-8")
    for bad in (junk, ods, many):
        code, text, err = run_cli("import", deck, bad)
        assert code == 1 and "error[bad-sheet]" in text and "Traceback" not in text + err, text + err
    assert _files(deck) == before


def test_a_zip_bomb_is_refused_before_it_is_read(decks, tmp_path, run_cli, monkeypatch):
    import cardtool.sheets.books as books

    monkeypatch.setattr(books, "MAX_XML_BYTES", 100_000)  # the real bound (100 MB) with a file 1,000 times smaller
    bomb = tmp_path / "bomb.xlsx"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/worksheets/sheet1.xml", b"\0" * 200_000)
    code, text, _ = run_cli("import", decks / "symbiosis", bomb)
    assert code == 1 and "unpack" in text


def test_export_neutralises_formulas_in_deck_text(decks, tmp_path, run_cli):
    deck = decks / "symbiosis"
    cards = next(p for p in deck.rglob("*.yaml") if "Spawning Run" in p.read_text())
    cards.write_text(cards.read_text().replace("name: Spawning Run", 'name: "=HYPERLINK(1)"'), encoding="utf-8")
    assert run_cli("export", deck, "--format", "csv", "--out", tmp_path / "s")[0] == 0
    text = next((tmp_path / "s").glob("*.csv")).read_text()
    assert "'=HYPERLINK(1)" in text and ",=HYPERLINK" not in text
    assert run_cli("export", deck, "--out", tmp_path / "c.xlsx")[0] == 0
    from openpyxl import load_workbook

    cell = next(c for row in load_workbook(tmp_path / "c.xlsx").active.iter_rows() for c in row
                if c.value == "=HYPERLINK(1)")
    assert cell.data_type == "s"
    assert run_cli("export", deck, "--format", "ods", "--out", tmp_path / "c.ods")[0] == 0
    with zipfile.ZipFile(tmp_path / "c.ods") as archive:
        content = archive.read("content.xml").decode()
    assert "table:formula" not in content and "=HYPERLINK(1)" in content
    before = _files(deck)
    for sheet in (*(tmp_path / "s").glob("*.csv"), tmp_path / "c.xlsx", tmp_path / "c.ods"):
        code, text, err = run_cli("import", deck, sheet)
        assert code == 0 and "no changes" in text, text + err
    assert _files(deck) == before


def test_export_never_writes_into_a_deck_and_import_writes_only_its_own_files(decks, tmp_path, run_cli):
    code, _, err = run_cli("export", decks / "symbiosis", "--out", decks / "symbiosis" / "cards.xlsx")
    assert code == 2 and "deck folder" in err
    base = _files(decks / "ecologies-bizarre-biomes")
    out = tmp_path / "f.xlsx"
    assert run_cli("export", decks / "frozen-and-deep", "--out", out)[0] == 0
    from openpyxl import load_workbook

    assert "cave-amphipod" not in {c.value for row in load_workbook(out)["Organisms"].iter_rows() for c in row}
    _xlsx_edit(out, "Organisms", "arctic-fox", name="Snow Fox")
    code, text, err = run_cli("import", decks / "frozen-and-deep", out)
    assert code == 0, text + err
    assert _files(decks / "ecologies-bizarre-biomes") == base
    assert "Snow Fox" in (decks / "frozen-and-deep" / "organisms" / "tundra.yaml").read_text()


def test_a_sheet_of_an_unknown_kind_is_an_error(decks, tmp_path, run_cli):
    sheet = tmp_path / "weather.csv"
    sheet.write_text("id,name\nrain,Rain\n", encoding="utf-8")
    code, text, _ = run_cli("import", decks / "ecologies-bizarre-biomes", sheet)
    assert code == 1 and "error[bad-sheet]" in text and "Organisms" in text


def test_an_ods_formula_and_padding_columns_are_read_safely(decks, tmp_path, run_cli):
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    document = OpenDocumentSpreadsheet()
    table = Table(name="Cards")
    for values in (("id", "name"), ("spring-fish-5", None)):
        row = TableRow()
        for value in values:
            if value is None:  # a formula, as LibreOffice stores one
                cell = TableCell(formula="of:=1+1", valuetype="float", value="2")
                cell.addElement(P(text="2"))
            else:
                cell = TableCell(valuetype="string")
                cell.addElement(P(text=value))
            row.addElement(cell)
        row.addElement(TableCell(numbercolumnsrepeated="16384"))  # padding to the sheet's last column
        table.addElement(row)
    table.addElement(TableRow(numberrowsrepeated="1048570"))  # and to its last row
    document.spreadsheet.addElement(table)
    document.save(str(tmp_path / "f.ods"))
    code, text, err = run_cli("import", decks / "symbiosis", tmp_path / "f.ods")
    assert code == 1 and f"{tmp_path / 'f.ods'}:Cards!B2: error[bad-value]" in text and "formula" in text, text + err
