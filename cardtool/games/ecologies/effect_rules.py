"""Checks that each effect is a sentence the vocabulary can mean (docs/effects.md)."""

from __future__ import annotations

from cardtool.deck.source import CardEntry, DeckSource
from cardtool.issues import Report

_REPEATABLE = ("activated", "turn_start")


def check_effects(source: DeckSource, report: Report) -> None:
    for entry in source.cards.values():
        if entry.kind == "biome":
            for index, effect in enumerate(entry.data["bonus"]["effects"]):
                _check(entry, ("bonus", "effects", index), effect, report, bonus=True)
        elif entry.kind == "factor":
            effects = entry.data["effects"]
            for index, effect in enumerate(effects):
                _check(entry, ("effects", index), effect, report, bonus=False)
            if entry.data["placement"] == "discard" and all(e["trigger"] == "ongoing" for e in effects):
                _mismatch(entry, ("placement",), report,
                          "a one-off card (placement: discard) leaves play at once, so its ongoing effects never apply",
                          "use placement: table for a lasting buff, or trigger: play for a one-off action")


def _check(entry: CardEntry, path: tuple, effect: dict, report: Report, *, bonus: bool) -> None:
    trigger = effect["trigger"]
    if trigger == "web_gains_card" and (bonus or entry.data.get("placement") != "web"):
        _mismatch(entry, path + ("trigger",), report,
                  "web_gains_card needs a factor card placed on a food web (placement: web)")
    if bonus and trigger == "play":
        _mismatch(entry, path + ("trigger",), report, "a biome bonus is never played; it is in force while healthy",
                  "use ongoing, activated or turn_start")
    if effect.get("every", 1) > 1 and trigger not in _REPEATABLE:
        _mismatch(entry, path + ("every",), report,
                  f"'every' sets how often a repeated use may happen, which {trigger} effects are not",
                  "use it with trigger activated or turn_start")


def _mismatch(entry: CardEntry, path: tuple, report: Report, message: str, hint: str | None = None) -> None:
    report.error("effect-mismatch", message, location=entry.locate(*path), card=entry.id, path=entry.path + path,
                 hint=hint)
