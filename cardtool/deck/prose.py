"""Rulebook prose: the deck's Markdown sections, parsed once the same way for `validate` and for printing,
and checked for what they name.

Pictures must be files inside the deck's roots (or `data:` URLs), never on the network; links may point
to the web (a PDF never follows them by itself) but not to local files outside the roots. Markdown's raw
HTML is off: deck prose is text, never markup.
"""

from __future__ import annotations

from pathlib import Path

from cardtool.deck.containment import HINT, OUTSIDE, REMOTE, REMOTE_HINT, Outside, Remote, Roots, line_of, url_target
from cardtool.issues import Location, Report


def markdown():
    """The Markdown parser every rulebook section goes through (CommonMark, tables, typographic quotes)."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": False, "typographer": True}).enable(["table", "replacements",
                                                                                  "smartquotes"])


#: Characters that every Markdown picture, link and fenced block begins with (raw HTML and linkify are
#: off): prose without any of them names nothing to check, and validate need not load the parser.
MARKUP = frozenset("[<`~")


def names_anything(text: str) -> bool:
    """Whether Markdown could find a picture, a link or a fenced block in text."""
    return not MARKUP.isdisjoint(text)


def check_references(tokens, path: Path, roots: Roots, report: Report) -> None:
    """Report every picture or link in a parsed section that leaves the roots or reaches the network.

    A picture inside the roots is given its full file URL, so it shows whichever folder the section
    comes from."""
    for token in tokens:
        if token.type != "inline" or not token.children:
            continue
        for child in token.children:
            attribute = {"image": "src", "link_open": "href"}.get(child.type)
            url = child.attrGet(attribute) if attribute else None
            if not url:
                continue
            line, column = line_of(token.content, url)
            where = Location(path, (token.map[0] if token.map else 0) + line, column)
            what = "picture" if child.type == "image" else "link"
            try:
                target = url_target(url, path.parent, roots)
            except Remote as exc:
                if child.type == "image":
                    report.error(REMOTE, f"{what} {exc}: cardtool does not fetch pictures", location=where,
                                 hint=REMOTE_HINT)
                continue
            except Outside as exc:
                report.error(OUTSIDE, f"{what} {exc}", location=where, hint=HINT)
                continue
            if target is not None and child.type == "image":
                child.attrSet("src", target.as_uri())


def check_directives(deck, plugin, report: Report) -> None:
    """Every ```` ```cardtool:NAME``` ```` block of the deck's rulebook sections, checked as the rulebook would
    use it (plugin: a cardtool.games.plugin.ChecksDirectives), each issue located at its fence."""
    from cardtool.suggest import did_you_mean

    roots = Roots.of(*deck.roots) if deck.roots else Roots.of(deck.manifest.root)
    md = None
    for path in deck.manifest.rulebook:
        path = Path(path)
        if not roots.contains(path) or not path.is_file():
            continue  # the manifest's checks report it
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # check_sections reports it
        if not names_anything(text):
            continue
        md = md or markdown()
        for token in md.parse(text):
            if token.type != "fence" or not token.info.startswith("cardtool:"):
                continue
            name, *args = token.info[len("cardtool:"):].split() or [""]
            where = Location(path, (token.map[0] + 1) if token.map else 1, 1)
            if name not in plugin.directive_names:
                known = ", ".join(plugin.directive_names) or "none for this game"
                report.error("bad-directive", f"unknown rulebook directive 'cardtool:{name}' (directives: {known})",
                             location=where, hint=did_you_mean(name, plugin.directive_names))
                continue
            plugin.check_directive(deck, name, args, token.content, path.parent, where, report)


def check_sections(paths, roots: Roots, report: Report) -> None:
    """What `validate` checks of the prose: each existing section's pictures and links (a section that is
    missing, outside the roots or not a regular file is reported where the manifest names it)."""
    md = None
    for path in paths:
        path = Path(path)
        if not roots.contains(path) or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            report.error("encoding", "this rulebook section is not UTF-8 text", location=Location(path),
                         hint="save the file as UTF-8 in your editor")
            continue
        except OSError as exc:
            report.error("missing-file", f"cannot read this rulebook section: {exc.strerror}", location=Location(path))
            continue
        if not names_anything(text):
            continue
        md = md or markdown()
        check_references(md.parse(text), path, roots, report)
