"""Inline icons: a token such as `:P:`, `:VER:` or `:frog:` in card text or rulebook prose shows that icon
of the game (its vocabulary: cardtool.games.tokens.HasIconTokens) inline, one text line high.

`check_icon_tokens` reports every unknown token as a located error for validate; `inline_icons` (also the
Jinja filter `icons`) turns plain text into safe HTML with the icons drawn, `icons_in_html` does the same to
HTML already rendered (the rulebook's Markdown), leaving code untouched; both take the icons' URLs from
cardtool.render.icon_links.icon_urls. Light to import: markupsafe loads only when icons are drawn.
"""

from __future__ import annotations

import re
from pathlib import Path

#: `:NAME:` not glued to a word, a colon or a slash (so "a:b:c", "12:30:00" and URLs are not tokens).
TOKEN = re.compile(r"(?<![\w:/]):([A-Za-z][A-Za-z0-9_]*):(?![\w:/])")
CODE = "unknown-icon"
_CODE_SPAN = re.compile(r"`[^`\n]*`")
_HTML_CODE = re.compile(r"(<(code|pre)\b.*?</\2>)", re.S)


def vocabulary(deck) -> dict:
    """Token name -> cardtool.games.tokens.IconToken for the deck's game ({} for a game without icons)."""
    from cardtool.games import get
    from cardtool.games.tokens import HasIconTokens

    plugin = get(deck.game)
    return dict(plugin.icon_tokens(deck)) if isinstance(plugin, HasIconTokens) else {}


_IMG = '<img class="icon-inline" src="{}" alt="{}" style="{}">'


def inline_icons(text: str, urls: dict[str, tuple[str, str, str]]):
    """Plain text as safe HTML, each known token drawn as its icon (unknown ones stay as written)."""
    from markupsafe import Markup, escape

    out, last = [], 0
    for match in TOKEN.finditer(text):
        found = urls.get(match.group(1))
        if found is None:
            continue
        out.append(escape(text[last:match.start()]))
        out.append(Markup(_IMG).format(*found))
        last = match.end()
    out.append(escape(text[last:]))
    return Markup("").join(out)


def icons_in_html(html: str, urls: dict[str, tuple[str, str, str]]):
    """HTML with each known token outside <code> and <pre> drawn as its icon (tokens sit in text, never in
    a tag's attributes: Markdown escapes nothing that a token contains, and tags hold no `:NAME:`)."""
    from markupsafe import Markup

    def draw(part: str) -> str:
        return TOKEN.sub(lambda m: (Markup(_IMG).format(*urls[m.group(1)])
                                    if m.group(1) in urls else m.group(0)), part)

    pieces = _HTML_CODE.split(html)
    out = []
    skip = 0
    for piece in pieces:
        if skip:  # the tag name captured alongside a code block
            skip -= 1
            continue
        if _HTML_CODE.fullmatch(piece):
            out.append(piece)
            skip = 1
        else:
            out.append(draw(piece))
    return Markup("".join(out))


def _unknown(text: str, known) -> list[tuple[str, int]]:
    return [(m.group(1), m.start()) for m in TOKEN.finditer(text) if m.group(1) not in known]


def _strings(value, path=()):
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _strings(item, path + (index,))


def check_icon_tokens(deck, source, report) -> None:
    """A located error for every token in card text or rulebook prose that names no icon of the game."""
    from cardtool.issues import Location
    from cardtool.suggest import did_you_mean

    texts = [(card_id, entry, path, text) for card_id, entry in source.cards.items()
             for path, text in _strings(entry.data) if TOKEN.search(text)]
    prose = _prose_lines(deck)
    if not texts and not prose:
        return  # no token written: the game's vocabulary (and its card layer) need not load
    known = vocabulary(deck)
    listing = ", ".join(f":{name}:" for name in known) or "none for this game"

    def hint(name: str) -> str:
        close = did_you_mean(name, known)
        return (f"{close}; " if close else "") + f"icons: {listing} (docs/deck-format.md#inline-icons)"

    for card_id, entry, path, text in texts:
        for name, _ in _unknown(text, known):
            report.error(CODE, f"unknown icon :{name}: in field '{'.'.join(map(str, path))}'",
                         location=entry.locate(*path), card=card_id, path=path, hint=hint(name))
    for file, number, line in prose:
        for name, column in _unknown(line, known):
            report.error(CODE, f"unknown icon :{name}: in the rulebook", location=Location(file, number, column + 1),
                         hint=hint(name))


def _prose_lines(deck) -> list[tuple[Path, int, str]]:
    """(file, line number, text) of each rulebook line holding a token, outside code."""
    from cardtool.deck.containment import Roots

    roots = Roots.of(*deck.roots) if deck.roots else Roots.of(deck.manifest.root)
    found = []
    for file in deck.manifest.rulebook:
        file = Path(file)
        if not roots.contains(file) or not file.is_file():
            continue  # outside the deck, or a folder, pipe or device: never opened (the loader reports it)
        try:
            lines = file.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            continue  # the loader's rulebook check reports a section it cannot read
        fenced = False
        for number, line in enumerate(lines, 1):
            if line.lstrip().startswith(("```", "~~~")):
                fenced = not fenced
                continue
            text = _CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line)
            if not fenced and TOKEN.search(text):
                found.append((file, number, text))
    return found
