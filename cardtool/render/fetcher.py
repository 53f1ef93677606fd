"""The only way WeasyPrint may load anything: files inside the allowed roots, and data: URLs.

Every HTML document cardtool lays out gets a DeckFetcher. It serves `data:` URLs and `file:` URLs whose
real path (links followed) lies in the deck's folders or cardtool's shipped templates, and refuses
everything else (http, https, ftp, file outside, a file on another host) without opening it. A refusal
is recorded; `check` then turns it into a RenderError naming the URL, so an incomplete page is never
written silently. Deck files are checked earlier with located issues (deck/containment.py): this is
the last line, for whatever reaches the renderer anyway.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit
from urllib.request import url2pathname

from cardtool.deck.containment import Roots
from cardtool.errors import RenderError
from cardtool.resources import schemas_dir, templates_dir

_PACKAGE = Path(__file__).resolve().parents[1]


def shipped_roots() -> Roots:
    """What cardtool itself ships: templates (icons, stylesheets), schemas and its packaged data, and the
    templates folders of game plugins whose templates are in use."""
    from cardtool.render.environment import PLUGIN_TEMPLATE_DIRS

    return Roots.of(templates_dir(), schemas_dir(), _PACKAGE / "_data", *sorted(PLUGIN_TEMPLATE_DIRS))


class Refused(ValueError):
    """A URL the fetcher will not load (WeasyPrint then leaves the picture out, and check() fails)."""


def deck_fetcher(roots: Roots = Roots(()), what: str = "the document"):
    """A WeasyPrint url_fetcher serving only files inside roots (and cardtool's own) and data: URLs."""
    from weasyprint.urls import URLFetcher

    class DeckFetcher(URLFetcher):
        def __init__(self):
            super().__init__(allowed_protocols=("file", "data"), allow_redirects=False)
            self.roots = roots + shipped_roots()
            self.what = what
            self.refused: list[str] = []

        def fetch(self, url, headers=None):
            scheme = url.split(":", 1)[0].lower() if ":" in url else ""
            if scheme == "data" or (scheme == "file" and self._inside(url)):
                return super().fetch(url, headers)
            if url not in self.refused:
                self.refused.append(url)
            raise Refused(f"cardtool does not load {url}")

        def _inside(self, url: str) -> bool:
            parts = urlsplit(url)
            path = Path(url2pathname(parts.path))
            # a pipe or a device would block or never end: only regular files (or missing ones) are opened
            return parts.netloc == "" and self.roots.contains(path) and (path.is_file() or not path.exists())

    return DeckFetcher()


def check(fetcher) -> None:
    """RenderError if the fetcher refused anything while the document was laid out or written."""
    if fetcher.refused:
        shown = ", ".join(fetcher.refused[:3]) + (f" and {len(fetcher.refused) - 3} more" if len(fetcher.refused) > 3
                                                  else "")
        raise RenderError(f"{fetcher.what}: refused to load {shown}: a deck may reference only files inside its "
                          "folders and data: URLs, and cardtool never uses the network")
