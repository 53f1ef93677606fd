"""The rulebook: the deck's Markdown sections (its prose) around parts generated from its data — the
component list counted from the cards, reference tables, a card index, pictures — with a table of
contents and page numbers laid out by WeasyPrint (CSS target-counter and @page counters).

A fenced block whose info string starts with `cardtool:` is a directive the game fills in from the
data, e.g. ```` ```cardtool:score examples/worked-example.yaml Emma ```` for a worked example that the
Symbiosis scoring engine computes. Markdown's raw HTML is off: deck prose is text, never markup.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup, escape

from cardtool.deck.containment import HINT, OUTSIDE, Roots
from cardtool.deck.prose import check_references, markdown
from cardtool.deck.model import Deck
from cardtool.errors import DeckError, RenderError, UsageError
from cardtool.render.cards import stylesheet
from cardtool.render.context import deck_roots
from cardtool.render.environment import render
from cardtool.render.icon_links import icon_urls
from cardtool.render.icons import icons_in_html
from cardtool.render.fitting import render_html, write_pdf
from cardtool.issues import Location, Report
from cardtool.render.sheets import Paper


@dataclass(frozen=True)
class Heading:
    id: str
    title: str
    level: int  # 1 chapter, 2 section


@dataclass(frozen=True)
class Chapter:
    """A chapter of the book: generated from data, or a Markdown section of the deck."""

    id: str
    title: str
    html: Markup
    headings: tuple[Heading, ...]  # the chapter's own heading first
    new_page: bool = False


@dataclass(frozen=True)
class Rulebook:
    """The typed context of templates/rulebook/rulebook.html.j2."""

    title: str
    subtitle: str
    version: str
    authors: tuple[str, ...]
    description: str
    components: str
    paper: Paper
    chapters: tuple[Chapter, ...]
    css: Markup
    colophon: str
    kind: str = "Rulebook"  # or "Rulebook insert": an expansion's pages to keep with its base's book
    note: str = ""  # a line on the cover under the description (an insert says which book it goes with)

    @property
    def contents(self) -> tuple[Heading, ...]:
        return tuple(h for chapter in self.chapters for h in chapter.headings)


class Slugs:
    """Unique ids for headings: 'Setting up' -> 'setting-up', then 'setting-up-2'."""

    def __init__(self):
        self.seen: set[str] = set()

    def __call__(self, title: str) -> str:
        base = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "section"
        slug, n = base, 1
        while slug in self.seen:
            n += 1
            slug = f"{base}-{n}"
        self.seen.add(slug)
        return slug


def markdown_chapters(paths, directives: dict, slugs: Slugs, roots: Roots | None = None,
                      icons: dict | None = None) -> list[Chapter]:
    """Each Markdown file as chapters: a `#` heading starts a chapter, `##` a section inside it; `:P:`
    tokens named in icons (cardtool.render.icons.icon_urls) are drawn as the game's icons.

    Sections, and the pictures and files they name, must lie inside roots (the deck's folders: by default
    the folder of each section); a picture on the network is refused, so the book never fetches one."""
    md = markdown()
    chapters = []
    report = Report()
    parsed = []
    for path in paths:
        path = Path(path)
        section_roots = roots or Roots.of(path.parent)
        if not section_roots.contains(path):
            report.error(OUTSIDE, "this rulebook section is a symbolic link that leads outside the deck folder; "
                         "it was not read", location=Location(path), hint=HINT)
            continue
        if path.exists() and not path.is_file():  # a folder, a pipe or a device: opening it might never end
            raise RenderError(f"{path}: cannot read this rulebook section (it is not a regular file)")
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise RenderError(f"{path}: cannot read this rulebook section ({exc})") from None
        tokens = md.parse(text)
        check_references(tokens, path, section_roots, report)
        parsed.append((path, text.splitlines(), tokens))
    if not report.ok:
        raise DeckError("the rulebook names files outside the deck or on the network; nothing was written", report)
    for path, lines, tokens in parsed:
        pieces: list[list] = []
        for token in tokens:
            if token.type == "heading_open" and token.tag == "h1":
                pieces.append([])
            elif not pieces:
                line = (token.map[0] + 1) if token.map else 1
                raise RenderError(f"{path}:{line}: a rulebook section starts with a '# Title' line")
            pieces[-1].append(token)
        for piece in pieces:
            headings = []
            for i, token in enumerate(piece):
                if token.type == "heading_open":
                    level = int(token.tag[1])
                    title = piece[i + 1].content
                    slug = slugs(title)
                    token.attrSet("id", slug)
                    token.tag = f"h{min(level + 1, 6)}"
                    piece[i + 2].tag = token.tag
                    if level <= 2:
                        headings.append(Heading(slug, title, level))
                elif token.type == "fence" and token.info.startswith("cardtool:"):
                    line = (token.map[0] + 1) if token.map else 1
                    source = lines[line - 1] if line <= len(lines) else ""
                    first = token.info.split()[1:2]  # the directive's first argument, where messages point
                    column = (source.find(first[0]) if first and first[0] in source else source.find("`")) + 1
                    token.type = "html_block"
                    token.content = str(_directive(token.info, token.content, directives, path,
                                                   f"{line}:{max(column, 1)}"))
            html = md.renderer.render(piece, md.options, {})
            if icons:
                html = icons_in_html(html, icons)
            chapters.append(Chapter(headings[0].id, headings[0].title, Markup(html), tuple(headings)))
    return chapters


def _directive(info: str, body: str, directives: dict, path: Path, line: str) -> Markup:
    name, *args = info[len("cardtool:"):].split()
    handler = directives.get(name)
    if handler is None:
        from cardtool.suggest import did_you_mean

        hint = did_you_mean(name, directives)
        known = ", ".join(directives) or "none for this game"
        raise RenderError(f"{path}:{line}: unknown rulebook directive 'cardtool:{name}'"
                          + (f"; {hint}" if hint else "") + f" (directives: {known})")
    return handler(args, body, path.parent, f"{path}:{line}")


def rulebook_context(deck: Deck, paper: Paper) -> Rulebook:
    from cardtool import __version__
    from cardtool.games import get
    from cardtool.games.plugin import WritesRulebook

    plugin = get(deck.game)
    if not isinstance(plugin, WritesRulebook):
        raise UsageError(f"{plugin.title} cannot write a rulebook: its plugin has no rulebook_parts() "
                         "(see docs/plugins.md)")
    parts = plugin.rulebook_parts(deck)
    slugs = Slugs()
    components = parts.components()
    chapters = [generated_chapter(slugs, "Components", render("rulebook/components.html.j2", components=components))]
    introduction = getattr(parts, "introduction", None)  # optional: chapters between components and prose
    for title, html in (introduction() if introduction else ()):
        chapters.append(generated_chapter(slugs, title, html))
    prose = markdown_chapters(deck.manifest.rulebook, parts.directives(), slugs, deck_roots(deck), icon_urls(deck))
    if not prose:
        chapters.append(generated_chapter(slugs, "How to play", Markup(
            "<p class='missing'>This deck has no rulebook sections yet: list Markdown files under "
            "<code>rulebook:</code> in its deck.yaml.</p>")))
    chapters += prose
    for title, html in parts.reference():  # chapters flow on: a page break only where a block would split
        chapters.append(generated_chapter(slugs, title, html))
    manifest = deck.manifest
    title, _, subtitle = manifest.name.partition(":")
    return Rulebook(
        title=title.strip(), subtitle=subtitle.strip(), version=manifest.version, authors=manifest.authors,
        description=" ".join(manifest.description.split()), components=components.line, paper=paper,
        chapters=tuple(chapters), css=stylesheet("rulebook/rulebook.css"),
        colophon=f"Rules for version {manifest.version} of the cards. Every count, table, picture and example "
                 f"in this book is computed from the cards themselves, so it always agrees with them. "
                 f"Made with cardtool {__version__}.")


def generated_chapter(slugs: Slugs, title: str, html, new_page: bool = False) -> Chapter:
    """A chapter computed from the data: its heading, then the HTML a template rendered."""
    slug = slugs(title)
    body = Markup(f'<h2 id="{escape(slug)}">{escape(title)}</h2>\n') + Markup(html)
    return Chapter(slug, title, body, (Heading(slug, title, 1),), new_page)


def rulebook_pdf(deck: Deck, paper: Paper) -> tuple[bytes, int]:
    """The rulebook PDF and its page count."""
    return book_pdf(deck, rulebook_context(deck, paper))


def book_pdf(deck: Deck, context: Rulebook) -> tuple[bytes, int]:
    """A book of the deck (its rulebook, or an expansion's insert) laid out as a PDF, and its page count."""
    base = Path(deck.manifest.root).resolve().as_uri() + "/"
    document = render_html(render("rulebook/rulebook.html.j2", book=context), base, deck_roots(deck),
                           f"the rulebook of deck {deck.manifest.id}")
    return write_pdf(document), len(document.pages)
