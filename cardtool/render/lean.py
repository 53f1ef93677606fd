"""Card documents WeasyPrint styles with less work, laid out and written to the same bytes.

Two costs of styling a document of many similar cards, both removed here without changing what is drawn:

- **Styles shared between cards.** WeasyPrint computes an element's style once for all elements with the
  same parent style, the same matching rules and no `style` attribute; any `style` attribute makes the
  element, and everything inside it, computed anew, although a document of 95 cards holds ~1,000 such
  attributes with only ~60 different values. `shared_styles` moves each different attribute into one
  rule of the document's stylesheet, `.cardtool-sN` repeated so its specificity beats every rule of the
  page's own stylesheets (as an attribute does), and gives the element that class. It only does so when
  those stylesheets have no id selector (WeasyPrint ranks an attribute as one id), so precedence is
  unchanged; otherwise the HTML is left as it is.
- **Pseudo-elements no card has.** WeasyPrint's user-agent stylesheet gives *every* element `::marker`,
  `::footnote-*` and `::note-*` rules, so each element carries six pseudo-element styles that are
  computed and never drawn (cards have no footnotes, and markers belong to list items).
  `card_html_class` is an `HTML` whose user-agent stylesheet keeps `::marker` for `li` and `summary`
  only and drops the footnote and note rules; a document that mentions footnotes or notes, or a
  WeasyPrint without the hook, gets the usual one.

tests/test_render_cards.py checks that faces written either way are identical byte for byte.
"""

from __future__ import annotations

import re
from functools import lru_cache

PREFIX = "cardtool-s"
_TAG = re.compile(r"<([a-zA-Z][a-zA-Z0-9-]*)(\s[^<>]*?)?(/?)>")
_ATTRIBUTE = re.compile(r"""\s+([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?""")
_STYLE_ELEMENT = re.compile(r"<style[^>]*>(.*?)</style>", re.S | re.I)
_SVG = re.compile(r"(<svg\b.*?</svg>)", re.S | re.I)
_UNIVERSAL_PSEUDO = re.compile(r"^::(footnote-call|footnote-marker|note-call|note-marker|note-callback)\s*\{[^}]*\}\s*$",
                               re.M)
_MARKER = re.compile(r"^::marker(\s*\{)", re.M)


def _author_specificity(html: str) -> int | None:
    """The largest class count of any selector in the document's <style> elements, or None when one
    has an id (or cannot be read, or the page links a stylesheet): then nothing is moved."""
    import cssselect2
    import tinycss2

    head = html.split("<body", 1)[0]
    if re.search(r"<link\b", head, re.I):
        return None
    most = 0

    def walk(rules) -> bool:
        nonlocal most
        for rule in rules:
            if rule.type == "qualified-rule":
                try:
                    selectors = cssselect2.compile_selector_list(rule.prelude)
                except cssselect2.SelectorError:
                    return False
                for selector in selectors:
                    ids, classes, _ = selector.specificity
                    if ids:
                        return False
                    most = max(most, classes)
            elif rule.type == "at-rule" and rule.content is not None and rule.lower_at_keyword != "page":
                if not walk(tinycss2.parse_rule_list(rule.content, skip_comments=True, skip_whitespace=True)):
                    return False
        return True

    for css in _STYLE_ELEMENT.findall(head):
        if not walk(tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True)):
            return None
    return most


def shared_styles(html: str) -> str:
    """The document with each different `style` attribute of its body moved into one class rule of
    equal precedence (see the module docstring); the HTML as it was where that cannot be shown safe."""
    if "</style>" not in html or "<body" not in html:
        return html
    most = _author_specificity(html)
    if most is None:
        return html
    head, body = html.split("<body", 1)
    rules: dict[str, str] = {}

    def move(tag: re.Match) -> str:
        attributes = tag.group(2) or ""
        if "style" not in attributes:
            return tag.group(0)
        found = [(m.group(1).lower(), m) for m in _ATTRIBUTE.finditer(attributes)]
        names = [name for name, _ in found]
        style = next((m for name, m in found if name == "style"), None)
        if style is None or names.count("style") > 1 or names.count("class") > 1 or style.group(2) is None:
            return tag.group(0)  # only a double-quoted style, and at most one class attribute, is moved
        name = rules.setdefault(style.group(2), f"{PREFIX}{len(rules)}")
        kept, classed = [], False
        for attribute, match in found:
            if attribute == "style":
                continue
            if attribute == "class":
                if match.group(2) is None:
                    return tag.group(0)
                kept.append(f' class="{name} {match.group(2)}"')  # first, so a template's last class stays last
                classed = True
            else:
                kept.append(match.group(0))
        if not classed:
            kept.append(f' class="{name}"')
        return f"<{tag.group(1)}{''.join(kept)}{tag.group(3)}>"

    parts = _SVG.split(body)  # an inline SVG's style attributes are the SVG's own: left alone
    body = "".join(part if index % 2 else _TAG.sub(move, part) for index, part in enumerate(parts))
    if not rules:
        return html
    repeat = most + 1
    css = "".join(f"{('.' + name) * repeat} {{ {style} }}\n" for style, name in rules.items())
    at = head.rindex("</style>")
    return f"{head[:at]}{css}{head[at:]}<body{body}"


@lru_cache(maxsize=1)
def _lean_user_agent():
    """WeasyPrint's user-agent stylesheet without the pseudo-element rules every element gets, or None."""
    try:
        from weasyprint import CSS
        from weasyprint import html as weasy_html
    except ImportError:
        return None
    text = getattr(weasy_html, "UA", None)
    if not isinstance(text, str) or not hasattr(weasy_html, "UA_STYLESHEET"):
        return None
    lean, dropped = _UNIVERSAL_PSEUDO.subn("", text)
    lean, scoped = _MARKER.subn(r"li::marker, summary::marker\1", lean)
    if not dropped or scoped != 1:
        return None  # another stylesheet than the one this was written for: use it as it is
    return CSS(string=lean, counter_style=getattr(weasy_html, "UA_COUNTER_STYLE", None))


@lru_cache(maxsize=1)
def lean_html_class():
    """The HTML class styled with the lean user-agent stylesheet (made once), or None."""
    from weasyprint import HTML
    from weasyprint import html as weasy_html

    lean = _lean_user_agent()
    if lean is None or not callable(getattr(HTML, "_ua_stylesheets", None)):
        return None

    class CardHTML(HTML):
        """An HTML document styled with the lean user-agent stylesheet."""

        def _ua_stylesheets(self, *args, **kwargs):
            return [lean if sheet is weasy_html.UA_STYLESHEET else sheet
                    for sheet in super()._ua_stylesheets(*args, **kwargs)]

    return CardHTML


def card_html_class(html: str):
    """The WeasyPrint HTML class to lay out a document of cards with (see the module docstring)."""
    from weasyprint import HTML

    if re.search(r"footnote|note-(call|marker|callback)|list-item", html):
        return HTML
    return lean_html_class() or HTML
