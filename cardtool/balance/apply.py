"""`cardtool balance --apply`: the chosen values written into the deck's own card files, through
ruamel.yaml's round trip as `cardtool import` does (cardtool/sheets): comments, key order, flow style and
every untouched card stay byte for byte. The deck is validated with the new values, and if it has errors
every file is put back as it was."""

from __future__ import annotations

from pathlib import Path

from cardtool.balance.params import Parameter, path_of
from cardtool.issues import Location, Report


def apply_values(deck_path: Path, params: list[Parameter], values: dict) -> tuple[Report, list[Path]]:
    """Write each changed value into the card file that defines the card: (report, files written).
    Nothing is written when a card is not the deck's own (an expansion's base) or the result is invalid."""
    from cardtool.deck.loader import load
    from cardtool.sheets.deckfiles import read_own
    from cardtool.sheets.merge import _write, _write_bytes

    own = read_own(deck_path, require_valid=True)
    by_id = {card["id"]: (file, card) for file, _, card, _ in own.cards()}
    report = Report()
    changed = {}
    for parameter in params:
        value = values[parameter.name]
        if value == parameter.current:
            continue
        if parameter.card not in by_id:
            report.error("not-own-card", f"{parameter.name}: the card is not defined in {deck_path}'s own files "
                         "(it comes from a deck this one extends): apply the overrides instead",
                         location=Location(Path(deck_path)), card=parameter.card)
            continue
        file, target = by_id[parameter.card]
        *parents, last = path_of(parameter.field)
        for part in parents:
            target = target[part]
        target[last] = value
        changed[file.path] = file
    if not report.ok or not changed:
        return report, []
    originals = {path: path.resolve().read_bytes() for path in changed}
    for path, file in changed.items():
        _write(path, file.dump())
    after = load(Path(deck_path))
    if after.report.ok:
        return after.report, list(changed)
    for path, data in originals.items():  # the deck would not validate: leave it as it was
        _write_bytes(path, data)
    report.issues.extend(after.report.issues)
    return report, []
