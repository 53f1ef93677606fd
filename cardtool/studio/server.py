"""The studio's web server: bound to 127.0.0.1 only, answering a handful of GET routes.

    /               the page (templates/studio/page.html; its script and style beside it)
    /state.json     the current Snapshot; `?after=N` waits (up to 25 s) for one newer than version N
    /card/H.png     a card picture by content hash
    /picture/NAME   a picture a game's build step made (a food web)
    /source?file=F&line=N   a deck file with numbered lines (only files inside the deck's folders)

Nothing is written, no other file is served, and a request naming another host (a web page trying to
reach the server through DNS rebinding) is refused. The page builds its content with textContent, so a
deck's text never becomes markup; a Content-Security-Policy allows only this server's own script.
"""

from __future__ import annotations

import html
import json
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from cardtool.resources import templates_dir
from cardtool.studio.snapshot import Studio

STATIC = {"/": ("page.html", "text/html; charset=utf-8"), "/studio.js": ("studio.js", "text/javascript"),
          "/studio.css": ("studio.css", "text/css")}
POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'"
LONG_POLL = 25.0


class StudioServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, studio: Studio, port: int = 0):
        self.studio = studio
        super().__init__(("127.0.0.1", port), _Handler)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/"

    def start(self) -> threading.Thread:
        thread = threading.Thread(target=self.serve_forever, name="cardtool-serve", daemon=True)
        thread.start()
        return thread


class _Handler(BaseHTTPRequestHandler):
    server: StudioServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args) -> None:  # the terminal shows the studio's own lines only
        pass

    def do_GET(self) -> None:
        if not self._local_host():
            return self._send(HTTPStatus.FORBIDDEN, b"cardtool serve answers only to 127.0.0.1\n", "text/plain")
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        studio = self.server.studio
        if url.path in STATIC:
            name, kind = STATIC[url.path]
            return self._send(HTTPStatus.OK, (templates_dir() / "studio" / name).read_bytes(), kind)
        if url.path == "/state.json":
            after = _int(query.get("after", ["-1"])[0])
            snapshot = studio.wait(after, LONG_POLL) if after >= 0 else studio.snapshot
            return self._send(HTTPStatus.OK, json.dumps(snapshot.to_json()).encode(), "application/json")
        if url.path.startswith("/card/") and url.path.endswith(".png"):
            png = studio.cache.get(url.path[len("/card/"):-len(".png")])
            if png is not None:
                return self._send(HTTPStatus.OK, png, "image/png", cache=True)
        if url.path.startswith("/picture/"):
            name = url.path[len("/picture/"):]
            found = next((p for p in studio.snapshot.pictures if p.name == name), None)
            if found is not None:
                return self._send(HTTPStatus.OK, found.data, "image/svg+xml")
        if url.path == "/source":
            shown = studio.source(query.get("file", [""])[0])
            if shown is not None:
                return self._send(HTTPStatus.OK, _source_page(*shown, _int(query.get("line", ["0"])[0])),
                                  "text/html; charset=utf-8")
        return self._send(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain")

    def _local_host(self) -> bool:
        host = (self.headers.get("Host") or "").rsplit(":", 1)[0]
        return host in ("127.0.0.1", "localhost")

    def _send(self, status: HTTPStatus, body: bytes, kind: str, cache: bool = False) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Content-Security-Policy", POLICY)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Cache-Control", "max-age=31536000, immutable" if cache else "no-store")
        self.end_headers()
        self.wfile.write(body)


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        return -1


def _source_page(path, text: str, line: int) -> bytes:
    rows = "\n".join(f'<tr id="L{n}"{" class=hit" if n == line else ""}><td>{n}</td><td>{html.escape(t)}</td></tr>'
                     for n, t in enumerate(text.splitlines(), 1))
    return (f"<!doctype html><meta charset=utf-8><title>{html.escape(str(path))}</title>"
            f'<link rel=stylesheet href="/studio.css"><body class=source><h1>{html.escape(str(path))}</h1>'
            f'<p><a href="/">back to the cards</a></p><table class=lines>{rows}</table>').encode()
