"""`cardtool import`: merge a spreadsheet's edits into the deck's own YAML files.

Every cell is read as the type its field had, and only fields whose value changed are written, through
ruamel.yaml's round trip: comments, key order, quoting and every card nobody edited stay byte for byte.
A sheet without edits writes nothing. Edited cards are checked against the game's card schema with
errors located at their cells; then the whole deck is validated with the edits, and if it has errors the
files are put back as they were and the errors are reported (at the cells that caused them).
A row whose id the deck lacks adds a card to the file of the last card of that kind; cards missing from
the sheet are left alone (delete cards in the YAML files).
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from cardtool.deck.yamlsource import SourceDoc
from cardtool.issues import Issue, Location, Report
from cardtool.sheets.books import read
from cardtool.sheets.cells import CellError, CellLocation, decode
from cardtool.sheets.deckfiles import CardFile, OwnDeck, plain, read_own, sheet_title
from cardtool.sheets.grid import Sheet, SheetFileError

BAD_SHEET = "bad-sheet"


@dataclass
class Edit:
    """One card row of a sheet: the card's new plain data and the cell of each field."""

    card_id: str
    kind: str
    data: dict
    cells: dict[str, CellLocation]
    row: CellLocation  # the id cell
    changed: list[str] = field(default_factory=list)  # fields set or removed
    new: bool = False


class _SheetDoc(SourceDoc):
    """The edited cards as one document whose positions are spreadsheet cells, for the schema check."""

    def __init__(self, edits: list[Edit]):
        super().__init__(Path("sheet"), {"cards": [e.data for e in edits]})
        self.edits = edits

    def locate(self, path=(), *, key: bool = False) -> Location:
        path = tuple(path)
        if len(path) >= 2 and path[0] == "cards" and isinstance(path[1], int) and path[1] < len(self.edits):
            edit = self.edits[path[1]]
            if len(path) >= 3 and path[2] in edit.cells:
                return edit.cells[path[2]]
            return edit.row
        return self.edits[0].row if self.edits else Location(self.file)


def _kind_of(title: str, kinds: list[str]) -> str | None:
    wanted = title.strip().lower()
    for kind in kinds:
        if wanted in (kind.lower(), sheet_title(kind).lower()):
            return kind
    return None


def _column_like(own: OwnDeck, kind: str, column: str) -> object:
    for _, _, card, card_kind in own.cards():
        if card_kind == kind and column in card:
            return plain(card[column])
    return None


def read_edits(own: OwnDeck, sheet: Sheet, file: Path, report: Report, seen: dict) -> list[Edit]:
    """The card rows of one sheet, each cell read as its field's type; problems reported at cells."""
    label = sheet.title if file.suffix.lower() != ".csv" else ""
    at = lambda r, c: CellLocation(file, r, c, label)  # noqa: E731
    kinds = list(dict.fromkeys(kind for *_, kind in own.cards()))
    kind = _kind_of(sheet.title, kinds)
    if kind is None:
        report.error(BAD_SHEET, f"sheet '{sheet.title}' names no kind of card of this deck (it has "
                     f"{', '.join(sheet_title(k) for k in kinds)})", location=at(1, 1),
                     hint="keep the sheet (or CSV file) names that cardtool export wrote")
        return []
    if not sheet.rows or not any(v not in (None, "") for v in sheet.rows[0]):
        return []
    header = [str(v).strip() if v is not None else "" for v in sheet.rows[0]]
    if "id" not in header:
        report.error("missing-field", f"sheet '{sheet.title}' has no 'id' column in its first row",
                     location=at(1, 1), hint="the first row names the fields; 'id' says which card a row is")
        return []
    for c, name in enumerate(header, start=1):
        if name and header.index(name) != c - 1:
            report.error("duplicate-key", f"column '{name}' appears twice in the first row", location=at(1, c))
    by_id = {card["id"]: (file_, card, k) for file_, _, card, k in own.cards()}
    id_col = header.index("id") + 1
    edits = []
    for r, row in enumerate(sheet.rows[1:], start=2):
        if not any(v not in (None, "") for v in row):
            continue
        formulas = [c for (fr, c) in sheet.formulas if fr == r]
        for c in formulas:
            report.error("bad-value", "the cell holds a formula; cardtool reads values only and never computes "
                         "one", location=at(r, c), hint="type the value itself (copy, then paste as values)")
        if formulas:
            continue
        card_id = row[id_col - 1] if id_col <= len(row) else None
        if not isinstance(card_id, str) or not card_id.strip():
            report.error("missing-field", "this row has no card id", location=at(r, id_col))
            continue
        card_id = card_id.strip()
        if card_id in seen:
            report.error("duplicate-id", f"card id '{card_id}' is already a row at {seen[card_id]}",
                         location=at(r, id_col), card=card_id)
            continue
        seen[card_id] = at(r, id_col)
        found = by_id.get(card_id)
        if found is not None and found[2] != kind:
            report.error("bad-value", f"card '{card_id}' is a {found[2]} card of the deck, not a {kind} card",
                         location=at(r, id_col), card=card_id, hint=f"edit it in the {sheet_title(found[2])} sheet")
            continue
        old = plain(found[1]) if found else {"id": card_id}
        edit = Edit(card_id, kind, dict(old), {}, at(r, id_col), new=found is None)
        for c, name in enumerate(header, start=1):
            if not name or name == "id":
                continue
            cell = row[c - 1] if c <= len(row) else None
            missing = name not in old
            like = old[name] if not missing else _column_like(own, kind, name)
            edit.cells[name] = at(r, c)
            try:
                value = decode(cell, like, missing)
            except CellError as exc:
                code, message = exc.args
                report.error(code, f"field '{name}': {message}", location=at(r, c), card=card_id)
                continue
            if value is ...:
                if not missing:
                    del edit.data[name]
                    edit.changed.append(name)
            elif missing or value != old[name] or type(value) is not type(old[name]):
                edit.data[name] = value
                edit.changed.append(name)
        if edit.new and "kind" not in edit.data and kind != own.default_kind:
            edit.data["kind"] = kind
        if edit.changed or edit.new:
            edits.append(edit)
    return edits


def _styled(old: object, new: object) -> object:
    """new, written in old's YAML style: quoting of text, flow or block lists and mappings."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq
    from ruamel.yaml.scalarstring import ScalarString

    if isinstance(new, str) and isinstance(old, ScalarString):
        return type(old)(new)
    if isinstance(new, list):
        items = [_styled(old[i] if isinstance(old, list) and i < len(old) else
                         (old[0] if isinstance(old, list) and old else None), v) for i, v in enumerate(new)]
        seq = CommentedSeq(items)
        if not isinstance(old, CommentedSeq) or old.fa.flow_style():
            seq.fa.set_flow_style()
        return seq
    if isinstance(new, dict):
        mapping = CommentedMap()
        for key, value in new.items():
            mapping[key] = _styled(old.get(key) if isinstance(old, dict) else None, value)
        if isinstance(old, CommentedMap) and old.fa.flow_style():
            mapping.fa.set_flow_style()
        return mapping
    return new


def _apply(own: OwnDeck, edits: list[Edit], report: Report) -> set[Path]:
    """Write the edits into the round-trip documents; returns the files changed."""
    from ruamel.yaml.comments import CommentedMap

    by_id = {card["id"]: (file, card) for file, _, card, _ in own.cards()}
    last_of_kind: dict[str, CardFile] = {kind: file for file, _, _, kind in own.cards()}
    changed: set[Path] = set()
    for edit in edits:
        if edit.new:
            file = last_of_kind.get(edit.kind)
            if file is None:
                report.error(BAD_SHEET, f"no card file of the deck holds {edit.kind} cards to add '{edit.card_id}' "
                             "to", location=edit.row, card=edit.card_id)
                continue
            card = CommentedMap()
            card["id"] = edit.card_id
            for key, value in edit.data.items():
                if key != "id":
                    card[key] = _styled(None, value)
            file.cards().append(card)
            changed.add(file.path)
            continue
        file, card = by_id[edit.card_id]
        for name in edit.changed:
            if name not in edit.data:
                del card[name]
            else:
                card[name] = _styled(card.get(name), edit.data[name])
        changed.add(file.path)
    return changed


def _write(path: Path, text: str) -> None:
    """Replace one card file (the real file a link inside the deck leads to) in one step."""
    target = path.resolve()
    handle, temp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(text)
        os.chmod(temp, target.stat().st_mode & 0o777)  # mkstemp's file is private; keep the card file's mode
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def _relocate(issue: Issue, edits: dict[str, Edit]) -> Issue:
    """A deck issue about an edited card, moved to the cell of the field it names (or the card's id cell)."""
    edit = edits.get(issue.card or "")
    if edit is None:
        return issue
    path = issue.path
    name = path[2] if len(path) >= 3 and path[0] == "cards" else None
    where = edit.cells.get(name, edit.row) if name else edit.row
    return Issue(issue.severity, issue.code, issue.message, where, issue.card, issue.path, issue.hint)


def merge(deck_path: Path, sheet_files: list[Path], dry_run: bool = False) -> tuple[Report, list[Edit], list[Path]]:
    """Merge the sheets into the deck: (report, edits, files written). Nothing is written on an error."""
    from cardtool.deck.loader import load
    from cardtool.deck.schema import validate_against

    own = read_own(deck_path, require_valid=False)
    report = Report()
    edits: list[Edit] = []
    seen: dict = {}
    for file in sheet_files:
        try:
            sheets = read(file)
        except SheetFileError as exc:
            report.error(BAD_SHEET, str(exc), location=Location(file))
            continue
        for sheet in sheets:
            edits.extend(read_edits(own, sheet, file, report, seen))
    if edits:
        validate_against(_SheetDoc(edits), own.card_schema, report)
    if not report.ok or not edits:
        return report, edits if report.ok else [], []
    changed = _apply(own, edits, report)
    if not report.ok:
        return report, [], []
    files = [f for f in own.files if f.path in changed]
    if dry_run:
        return report, edits, [f.path for f in files]
    originals = {f.path: f.path.resolve().read_bytes() for f in files}
    for f in files:
        _write(f.path, f.dump())
    after = load(deck_path)
    if after.report.ok:
        return after.report, edits, [f.path for f in files]
    for path, data in originals.items():  # the deck would not validate: leave it as it was
        _write_bytes(path, data)
    by_id = {e.card_id: e for e in edits}
    report.issues.extend(_relocate(issue, by_id) for issue in after.report.issues)
    return report, [], []


def _write_bytes(path: Path, data: bytes) -> None:
    target = path.resolve()
    handle, temp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    with os.fdopen(handle, "wb") as out:
        out.write(data)
    os.chmod(temp, target.stat().st_mode & 0o777)
    os.replace(temp, target)
