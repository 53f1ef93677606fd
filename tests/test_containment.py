"""A deck names nothing outside its folders and nothing on the network (deck/containment.py,
render/fetcher.py): each reader refuses with a located issue before the outside file is opened, and the
renderer never makes a request. Hostile decks are built in tmp_path from the shipped Symbiosis deck."""

from __future__ import annotations

import http.server
import os
import shutil
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtool.deck.containment import Outside, Remote, Roots, svg_problems, url_target
from cardtool.deck.loader import load
from cardtool.errors import DeckError, RenderError
from cardtool.render.context import art_url, icon_url
from cardtool.render.fetcher import Refused, deck_fetcher
from cardtool.render.fitting import render_html, write_pdf
from cardtool.render.rulebook import Slugs, markdown_chapters
from tests.conftest import DECKS

SECRET = "SECRET-MARKER-7f3a"  # what an outside file holds: never printed
OUTSIDE_CARDS = f"cards:\n  - id: {SECRET.lower()}\n    name: {SECRET}\n"

# -- recording what the test process opens and lists --------------------------------------------------
_SEEN: list[str] | None = None


def _audit(event: str, args) -> None:
    if _SEEN is not None and event in ("open", "os.listdir", "os.scandir") and args:
        path = args[0]
        if isinstance(path, (str, bytes, os.PathLike)):
            _SEEN.append(os.fsdecode(path))


sys.addaudithook(_audit)


@contextmanager
def recording():
    """Paths opened or listed inside the block."""
    global _SEEN
    _SEEN = seen = []
    try:
        yield seen
    finally:
        _SEEN = None


def touched(seen: list[str], folder: Path) -> list[str]:
    folder = str(folder.resolve())
    return [p for p in seen if str(Path(p).resolve()).startswith(folder)]


# -- a deck and an outside folder ---------------------------------------------------------------------
@pytest.fixture
def deck(tmp_path) -> Path:
    folder = tmp_path / "deck"
    shutil.copytree(DECKS / "symbiosis", folder)
    return folder


@pytest.fixture
def outside(tmp_path) -> Path:
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "cards.yaml").write_text(OUTSIDE_CARDS, encoding="utf-8")
    (folder / "secret.txt").write_text(SECRET + "\n", encoding="utf-8")
    (folder / "pic.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"/>', encoding="utf-8")
    return folder


def add_card_files(deck: Path, *names: str) -> None:
    manifest = deck / "deck.yaml"
    text = manifest.read_text(encoding="utf-8")
    lines = "".join(f"  - {name!r}\n" for name in names)
    manifest.write_text(text.replace("  - cards.yaml\n", "  - cards.yaml\n" + lines, 1), encoding="utf-8")


def set_art(deck: Path, card_id: str, art: str) -> int:
    """Give a card art; returns the line of its art field in cards.yaml."""
    file = deck / "cards.yaml"
    lines = file.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.strip() == f"- id: {card_id}")
    lines.insert(at + 1, f"    art: {art!r}\n")
    file.write_text("".join(lines), encoding="utf-8")
    return at + 2


def issues(result, code: str):
    return [i for i in result.report.issues if i.code == code]


# -- the rule itself ----------------------------------------------------------------------------------
def test_a_name_inside_the_deck_resolves_and_a_missing_one_is_left_to_the_caller(deck):
    roots = Roots.of(deck)
    assert roots.locate("cards.yaml", deck) == (deck / "cards.yaml").resolve()
    assert roots.locate("rulebook/../cards.yaml", deck) == (deck / "cards.yaml").resolve()
    assert roots.locate("no-such.yaml", deck) == (deck / "no-such.yaml").resolve()


def test_absolute_and_dot_dot_names_are_outside(deck, outside):
    roots = Roots.of(deck)
    with pytest.raises(Outside, match="absolute"):
        roots.locate(str(outside / "cards.yaml"), deck)
    with pytest.raises(Outside, match=r"'\.\.'"):
        roots.locate("../outside/cards.yaml", deck)


def test_a_link_leading_out_is_outside_and_one_staying_in_is_fine(deck, outside):
    (deck / "linked.yaml").symlink_to(outside / "cards.yaml")
    (deck / "alias.yaml").symlink_to(deck / "cards.yaml")
    (deck / "loop.yaml").symlink_to(deck / "loop.yaml")
    roots = Roots.of(deck)
    with pytest.raises(Outside, match="symbolic link"):
        roots.locate("linked.yaml", deck)
    assert roots.locate("alias.yaml", deck) == (deck / "cards.yaml").resolve()
    with pytest.raises(Outside):
        roots.locate("loop.yaml", deck)


def test_a_base_folder_is_a_root_and_its_files_are_found_after_the_decks_own(tmp_path):
    own, base = tmp_path / "own", tmp_path / "base"
    for folder in (own, base):
        (folder / "art").mkdir(parents=True)
    (base / "art" / "fox.png").write_bytes(b"base")
    roots = Roots.of(own, base)
    assert roots.find("art/fox.png") == (base / "art" / "fox.png").resolve()
    (own / "art" / "fox.png").write_bytes(b"own")
    assert roots.find("art/fox.png") == (own / "art" / "fox.png").resolve()
    assert roots.locate("../base/art/fox.png", own) == (base / "art" / "fox.png").resolve()


def test_a_glob_never_lists_a_linked_folder_that_leaves_the_deck(deck, outside):
    (deck / "more").mkdir()
    (deck / "more" / "extra.yaml").write_text("cards: []\n", encoding="utf-8")
    (deck / "more" / "linked").symlink_to(outside, target_is_directory=True)
    (deck / "more" / "one.yaml").symlink_to(outside / "cards.yaml")
    roots = Roots.of(deck)
    with recording() as seen:
        files, escapes = roots.glob(deck, "more/*.yaml")
        deep, deep_escapes = roots.glob(deck, "more/*/*.yaml")
        every, _ = roots.glob(deck, "**/*.yaml")
    assert files == [deck / "more" / "extra.yaml"] and escapes == ["more/one.yaml"]
    assert deep == [] and deep_escapes == ["more/linked"]
    assert deck / "more" / "extra.yaml" in every and not any("outside" in str(p) for p in every)
    assert touched(seen, outside) == []


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(["*", "**", "organisms", "rulebook", "*.yaml", "c*", "?*.md", "[a-f]*", "deck.yaml"]),
                min_size=1, max_size=3))
def test_a_glob_inside_the_deck_finds_what_pathlib_finds(parts):
    """Without links the contained glob matches exactly the files pathlib's glob does."""
    base = DECKS / "ecologies-bizarre-biomes"
    pattern = "/".join(parts)
    found, escapes = Roots.of(base).glob(base, pattern)
    assert found == sorted({p for p in base.glob(pattern) if p.is_file()}) and escapes == []


def test_urls_a_deck_writes_are_data_local_inside_or_refused(deck, outside):
    roots = Roots.of(deck)
    assert url_target("data:image/png;base64,AAAA", deck, roots) is None
    assert url_target("#arrow", deck, roots) is None
    assert url_target("cards.yaml", deck, roots) == (deck / "cards.yaml").resolve()
    assert url_target((deck / "cards.yaml").as_uri(), deck, roots) == (deck / "cards.yaml").resolve()
    for remote in ("http://127.0.0.1/x.png", "https://example.org/x.png", "ftp://host/x", "//host/x.png",
                   "file://host/etc/passwd", "gopher://x"):
        with pytest.raises(Remote):
            url_target(remote, deck, roots)
    for far in ((outside / "secret.txt").as_uri(), "../outside/secret.txt", "/etc/passwd"):
        with pytest.raises(Outside):
            url_target(far, deck, roots)


# -- SVG ----------------------------------------------------------------------------------------------
SVG = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">{}</svg>'


@pytest.mark.parametrize("body, code", [
    ('<image href="http://127.0.0.1:9/x.png"/>', "remote-url"),
    ('<image xlink:href="https://example.org/x.png"/>', "remote-url"),
    ('<use href="//example.org/sprites.svg#a"/>', "remote-url"),
    ('<rect style="fill: url(http://example.org/p.svg#g)"/>', "remote-url"),
    ('<style>@import url(local.css);</style>', "remote-url"),
    ('<style>rect {{ fill: url("https://example.org/a") }}</style>', "remote-url"),
    ('<image href="../outside/pic.svg"/>', "outside-deck"),
    ('<image href="file:///etc/passwd"/>', "outside-deck"),
])
def test_svg_with_an_external_reference_is_refused(deck, body, code):
    art = deck / "art.svg"
    art.write_text(SVG.format(body.replace("{{", "{").replace("}}", "}")), encoding="utf-8")
    [problem] = svg_problems(art, Roots.of(deck))
    assert problem.code == code and problem.line == 1


def test_svg_with_only_local_data_and_fragment_references_is_fine(deck):
    (deck / "fox.png").write_bytes(b"\x89PNG")
    art = deck / "art.svg"
    art.write_text(SVG.format('<defs><linearGradient id="g"/></defs><rect fill="url(#g)"/>'
                              '<image href="fox.png"/><image href="data:image/png;base64,AAAA"/>'), encoding="utf-8")
    assert svg_problems(art, Roots.of(deck)) == []


def test_an_svg_drawn_by_svg_art_is_checked_too_and_located_at_the_reference(deck):
    (deck / "nested.svg").write_text(SVG.format('\n<image href="https://example.org/x.png"/>'), encoding="utf-8")
    (deck / "loop.svg").write_text(SVG.format('<image href="loop.svg"/>'), encoding="utf-8")
    art = deck / "art.svg"
    art.write_text(SVG.format('<image href="loop.svg"/>\n<image href="nested.svg"/>'), encoding="utf-8")
    [problem] = svg_problems(art, Roots.of(deck))
    assert (problem.code, problem.line) == ("remote-url", 2)
    assert "draws nested.svg, whose line 2 'https://example.org/x.png' is a URL on the network" in problem.message


def test_svg_entities_are_never_expanded_or_fetched(deck, outside):
    art = deck / "art.svg"
    art.write_text(f'<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY x SYSTEM "{(outside / "secret.txt").as_uri()}">]>\n'
                   '<svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>', encoding="utf-8")
    with recording() as seen:
        [problem] = svg_problems(art, Roots.of(deck))
    assert problem.code == "bad-art" and "entities" in problem.message and problem.line == 2
    assert touched(seen, outside) == []


# -- the loader: card files, globs, manifest, rulebook sections, art, icons ---------------------------
def test_a_card_file_linked_outside_is_refused_before_it_is_opened(deck, outside, run_cli):
    (deck / "pond.yaml").symlink_to(outside / "cards.yaml")
    add_card_files(deck, "pond.yaml")
    with recording() as seen:
        code, out, err = run_cli("validate", deck)
    assert code == 1
    assert "deck.yaml:12:5: error[outside-deck] card file 'pond.yaml' is a symbolic link" in out + err
    assert SECRET not in out + err and SECRET.lower() not in out + err
    assert touched(seen, outside) == []


def test_a_linked_folder_in_a_glob_loads_no_cards_from_elsewhere(deck, outside, run_cli):
    (deck / "extra").symlink_to(outside, target_is_directory=True)
    add_card_files(deck, "extra/*.yaml", "ex*/*.yaml")
    with recording() as seen:
        code, out, err = run_cli("validate", deck)
    assert code == 1
    assert "deck.yaml:12:5: error[outside-deck] card file 'extra/*.yaml' is a symbolic link" in out + err
    assert "deck.yaml:13:5: error[outside-deck] 'extra', matched by 'ex*/*.yaml', is a symbolic link" in out + err
    assert SECRET.lower() not in out + err
    assert touched(seen, outside) == []


def test_card_files_named_absolute_or_with_dot_dot_are_refused(deck, outside):
    add_card_files(deck, str(outside / "cards.yaml"), "../outside/cards.yaml")
    result = load(deck)
    assert [(i.location.line, i.code) for i in issues(result, "outside-deck")] == [(12, "outside-deck"),
                                                                                  (13, "outside-deck")]
    assert SECRET.lower() not in result.report.format()


def test_a_manifest_linked_outside_is_not_read(tmp_path, outside):
    folder = tmp_path / "evil"
    folder.mkdir()
    (folder / "deck.yaml").symlink_to(outside / "secret.txt")
    result = load(folder)
    [issue] = result.report.issues
    assert issue.code == "outside-deck" and SECRET not in result.report.format()


def test_a_rulebook_section_linked_outside_is_refused(deck, outside):
    (deck / "rulebook" / "1-goal.md").unlink()
    (deck / "rulebook" / "1-goal.md").symlink_to(outside / "secret.txt")
    result = load(deck)
    [issue] = issues(result, "outside-deck")
    assert issue.location.file.name == "deck.yaml" and issue.location.line == 13
    assert "rulebook section 'rulebook/1-goal.md'" in issue.message


@pytest.mark.parametrize("art, words", [
    ("/etc/passwd", "absolute"),
    ("../outside/pic.svg", "'..'"),
    ("linked.svg", "symbolic link"),
])
def test_art_leading_outside_is_a_located_error_at_the_art_field(deck, outside, art, words):
    (deck / "linked.svg").symlink_to(outside / "pic.svg")
    line = set_art(deck, "summer-frog-7", art)
    result = load(deck)
    [issue] = issues(result, "outside-deck")
    assert (issue.location.file.name, issue.location.line, issue.location.column) == ("cards.yaml", line, 10)
    assert issue.card == "summer-frog-7" and words in issue.message


def test_art_given_as_a_url_is_refused_on_the_network_and_allowed_as_data(deck, outside):
    set_art(deck, "summer-frog-7", "http://127.0.0.1:9/frog.png")
    set_art(deck, "spring-frog-3", (outside / "pic.svg").as_uri())
    set_art(deck, "spring-frog-per-pink", "data:image/png;base64,AAAA")
    result = load(deck)
    assert {i.card: (i.code, i.path[-1]) for i in result.report.errors} == {
        "summer-frog-7": ("remote-url", "art"), "spring-frog-3": ("outside-deck", "art")}
    assert art_url(Roots.of(deck), "data:image/png;base64,AAAA", "frog") == "data:image/png;base64,AAAA"


def test_art_that_is_a_pipe_or_a_folder_is_refused_at_validate_without_being_opened(deck):
    (deck / "art").mkdir()
    os.mkfifo(deck / "art" / "pipe.svg")
    pipe = set_art(deck, "summer-frog-7", "art/pipe.svg")
    set_art(deck, "spring-frog-3", "art")
    result = load(deck)  # opening the pipe would block: the test would hang
    assert {i.card: i.code for i in result.report.errors} == {"summer-frog-7": "bad-art", "spring-frog-3": "bad-art"}
    [issue] = [i for i in result.report.errors if i.card == "summer-frog-7"]
    assert issue.location.line == pipe + 1  # one line lower: spring-frog-3, above it, got an art line too


def test_svg_art_naming_the_network_is_a_located_error_at_the_art_field(deck):
    (deck / "art.svg").write_text(SVG.format('\n<image href="https://example.org/frog.png"/>'), encoding="utf-8")
    line = set_art(deck, "summer-frog-7", "art.svg")
    result = load(deck)
    [issue] = issues(result, "remote-url")
    assert issue.location.line == line and "art.svg:2:" in issue.message and "https://example.org" in issue.message


def test_icons_linked_outside_or_naming_the_network_are_refused(deck, outside):
    (deck / "icons" / "seasons").mkdir(parents=True)
    (deck / "icons" / "seasons" / "spring.svg").symlink_to(outside / "pic.svg")
    (deck / "icons" / "seasons" / "summer.svg").write_text(
        SVG.format('<image href="http://127.0.0.1:9/sun.png"/>'), encoding="utf-8")
    os.mkfifo(deck / "icons" / "seasons" / "winter.svg")  # opening it would block
    result = load(deck)
    assert [i.location.file.name for i in issues(result, "outside-deck")] == ["spring.svg"]
    assert [i.location.file.name for i in issues(result, "remote-url")] == ["summer.svg"]


def test_an_expansion_finds_a_base_cards_art_and_icons_in_the_base_folder(tmp_path, outside):
    from cardtool.deck.loader import load_deck
    from cardtool.render.context import deck_roots

    base, expansion = tmp_path / "ecologies-bizarre-biomes", tmp_path / "frozen-and-deep"
    shutil.copytree(DECKS / base.name, base)
    shutil.copytree(DECKS / expansion.name, expansion)
    (base / "art").mkdir()
    (base / "art" / "bacteria.svg").write_text(SVG.format(""), encoding="utf-8")
    (base / "icons" / "roles").mkdir(parents=True)
    (base / "icons" / "roles" / "P.svg").write_text(SVG.format(""), encoding="utf-8")
    cave = base / "organisms" / "cave.yaml"
    cave.write_text(cave.read_text(encoding="utf-8").replace(
        "  - id: sulfur-oxidizing-bacteria\n", "  - id: sulfur-oxidizing-bacteria\n    art: art/bacteria.svg\n", 1),
        encoding="utf-8")
    deck = load_deck(expansion)
    roots = deck_roots(deck)
    assert roots.folders == (expansion.resolve(), base.resolve())
    assert art_url(roots, "art/bacteria.svg", "sulfur-oxidizing-bacteria") == (base / "art" / "bacteria.svg").as_uri()
    assert icon_url("roles/P.svg", deck_root=roots) == (base / "icons" / "roles" / "P.svg").as_uri()
    with pytest.raises(RenderError, match="outside-deck"):
        art_url(roots, "../outside/pic.svg", "sulfur-oxidizing-bacteria")


# -- rendering: art and icons, rulebook pictures, score directives ------------------------------------
def test_art_url_and_icon_url_refuse_what_leads_outside(deck, outside):
    (deck / "linked.png").symlink_to(outside / "secret.txt")
    roots = Roots.of(deck)
    with pytest.raises(RenderError, match="outside-deck"):
        art_url(roots, "linked.png", "frog")
    with pytest.raises(RenderError, match="outside-deck"):
        art_url(roots, "../outside/pic.svg", "frog")
    (deck / "icons" / "seasons").mkdir(parents=True)
    (deck / "icons" / "seasons" / "spring.svg").symlink_to(outside / "pic.svg")
    with pytest.raises(RenderError, match="outside-deck"):
        icon_url("seasons/spring.svg", deck_root=roots)
    assert icon_url("seasons/summer.svg", deck_root=roots).endswith("templates/icons/seasons/summer.svg")


def test_rulebook_pictures_on_the_network_or_outside_are_refused_with_their_line(deck, outside):
    section = deck / "rulebook" / "pictures.md"
    section.write_text("# Pictures\n\nA frog:\n![frog](http://127.0.0.1:9/frog.png) and\n"
                       "![pond](../../outside/pic.svg)\n", encoding="utf-8")
    with pytest.raises(DeckError) as caught:
        markdown_chapters([section], {}, Slugs(), Roots.of(deck))
    found = [(i.code, i.location.line, i.location.column) for i in caught.value.report.issues]
    assert found == [("remote-url", 4, 9), ("outside-deck", 5, 9)]


def test_validate_reports_rulebook_pictures_on_the_network_or_outside_before_anything_is_printed(deck, run_cli):
    section = deck / "rulebook" / "1-goal.md"
    lines = section.read_text(encoding="utf-8").count("\n")
    with section.open("a", encoding="utf-8") as out:
        out.write("\n![frog](http://127.0.0.1:9/frog.png) and\n![pond](../../outside/pic.svg)\n")
    code, out, err = run_cli("validate", deck)
    assert code == 1, out + err
    assert f"1-goal.md:{lines + 2}:9: error[remote-url]" in out
    assert f"1-goal.md:{lines + 3}:9: error[outside-deck]" in out


def test_a_rulebook_section_that_is_a_pipe_is_never_opened(deck):
    pipe = deck / "rulebook" / "pipe.md"
    os.mkfifo(pipe)
    with pytest.raises(RenderError, match="not a regular file"):
        markdown_chapters([pipe], {}, Slugs(), Roots.of(deck))


def test_rulebook_pictures_inside_show_and_web_links_stay_links(deck):
    (deck / "rulebook" / "frog.svg").write_text(SVG.format(""), encoding="utf-8")
    section = deck / "rulebook" / "pictures.md"
    section.write_text("# Pictures\n\n![frog](frog.svg) ![dot](data:image/png;base64,AAAA) "
                       "[rules online](https://example.org/rules)\n", encoding="utf-8")
    [chapter] = markdown_chapters([section], {}, Slugs(), Roots.of(deck))
    assert f'src="{(deck / "rulebook" / "frog.svg").resolve().as_uri()}"' in chapter.html
    assert 'src="data:image/png;base64,AAAA"' in chapter.html
    assert 'href="https://example.org/rules"' in chapter.html


def test_a_score_directive_naming_a_position_outside_is_refused_unread(deck, outside, tmp_path):
    from cardtool.deck.loader import load_deck
    from cardtool.render.rulebook import rulebook_pdf
    from cardtool.render.sheets import PAPERS

    (outside / "position.yaml").write_text(f"mode: {SECRET}\n", encoding="utf-8")
    section = deck / "rulebook" / "4-scoring.md"
    text = section.read_text(encoding="utf-8")
    section.write_text(text.replace("../examples/worked-example.yaml", "../../outside/position.yaml"),
                       encoding="utf-8")
    loaded = load_deck(deck)
    with recording() as seen, pytest.raises(RenderError) as caught:
        rulebook_pdf(loaded, PAPERS["a4"])
    line = next(n for n, row in enumerate(text.splitlines(), 1) if row.startswith("```cardtool:score"))
    assert (f"4-scoring.md:{line}:19: error[outside-deck] position file '../../outside/position.yaml'"
            in str(caught.value))
    assert SECRET not in str(caught.value) and touched(seen, outside) == []


def test_score_on_a_file_that_is_not_a_position_does_not_echo_it(outside, run_cli):
    (outside / "passwd").write_text(f"root:x:0:0:{SECRET}:/root:/bin/bash\n", encoding="utf-8")
    code, out, err = run_cli("score", DECKS / "symbiosis", outside / "passwd")
    assert code == 1 and "passwd:1:1: error[bad-type] this is not a position file" in out + err
    assert SECRET not in out + err


# -- the url_fetcher, and a local server that must see no request -------------------------------------
@pytest.fixture
def server():
    """A web server on 127.0.0.1 recording every request it gets."""
    hits: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            hits.append(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "image/svg+xml")
            self.end_headers()
            self.wfile.write(SVG.format("").encode())

        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", hits
    httpd.shutdown()
    httpd.server_close()


def test_the_fetcher_serves_data_and_files_inside_and_refuses_the_rest(deck, outside, server):
    url, hits = server
    fetcher = deck_fetcher(Roots.of(deck), "a test")
    assert fetcher("data:text/plain,hello").read() == b"hello"
    assert fetcher((deck / "deck.yaml").resolve().as_uri()).read().startswith(b"# yaml-language-server")
    os.mkfifo(deck / "pipe.png")
    with recording() as seen:
        for refused in (f"{url}/x.png", "https://example.org/x.png", (outside / "secret.txt").as_uri(),
                        "file://otherhost/etc/passwd", "ftp://127.0.0.1/x", (deck / "pipe.png").as_uri()):
            with pytest.raises(Refused):
                fetcher(refused)
    assert len(fetcher.refused) == 6 and hits == [] and touched(seen, outside) == []


def test_the_local_server_does_answer_a_plain_fetch(server):
    """The control: without cardtool's fetcher WeasyPrint would reach the server, so `hits == []` above
    and below means the fetcher stopped the request."""
    from weasyprint.urls import URLFetcher

    url, hits = server
    URLFetcher()(f"{url}/control.svg").read()
    assert hits == ["/control.svg"]


def test_rendering_html_that_names_the_network_makes_no_request(deck, server):
    url, hits = server
    nested = deck / "nested.svg"
    nested.write_text(SVG.format(f'<image href="{url}/nested.png" width="5" height="5"/>'), encoding="utf-8")
    html = (f'<p>x</p><img src="{url}/direct.png"><div style="background: url({url}/bg.png)">y</div>'
            f'<img src="{nested.resolve().as_uri()}">')
    with pytest.raises(RenderError) as caught:
        write_pdf(render_html(html, deck.resolve().as_uri() + "/", Roots.of(deck), "a test page"))
    assert hits == []
    assert "a test page: refused to load" in str(caught.value) and "never uses the network" in str(caught.value)


def test_cards_whose_art_reaches_the_network_through_a_nested_svg_fail_without_a_request(
        deck, server, run_cli, tmp_path):
    url, hits = server
    (deck / "nested.svg").write_text(SVG.format(f'<image href="{url}/frog.png" width="5" height="5"/>'),
                                     encoding="utf-8")
    (deck / "art.svg").write_text(SVG.format('<image href="nested.svg" width="5" height="5"/>'), encoding="utf-8")
    set_art(deck, "summer-frog-7", "art.svg")
    code, out, err = run_cli("render", "cards", deck, "--only", "summer-frog-7", "--out", tmp_path / "cards.pdf")
    assert code == 1 and hits == [] and "Traceback" not in err
    assert f"error[remote-url] summer-frog-7: field 'art': art.svg:1:" in out + err
    assert f"draws nested.svg, whose line 1 '{url}/frog.png' is a URL on the network" in out + err


def test_rendering_a_deck_whose_svg_art_icon_or_rulebook_picture_names_the_server_makes_no_request(
        deck, server, run_cli, tmp_path):
    url, hits = server
    (deck / "art.svg").write_text(SVG.format(f'<image href="{url}/art.png"/>'), encoding="utf-8")
    set_art(deck, "summer-frog-7", "art.svg")
    (deck / "icons" / "seasons").mkdir(parents=True)
    (deck / "icons" / "seasons" / "summer.svg").write_text(SVG.format(f'<image href="{url}/icon.png"/>'),
                                                           encoding="utf-8")
    code, out, err = run_cli("render", "cards", deck, "--only", "summer-frog-7", "--out", tmp_path / "cards.pdf")
    assert code == 1 and "error[remote-url] summer-frog-7: field 'art'" in out + err
    assert "summer.svg:1:" in out + err
    shutil.rmtree(deck / "icons")
    (deck / "art.svg").unlink()
    (deck / "cards.yaml").write_text((DECKS / "symbiosis" / "cards.yaml").read_text(encoding="utf-8"),
                                     encoding="utf-8")
    goal = deck / "rulebook" / "1-goal.md"
    goal.write_text(goal.read_text(encoding="utf-8") + f"\n![pond]({url}/pond.png)\n", encoding="utf-8")
    code, out, err = run_cli("render", "rulebook", deck, "--out", tmp_path / "rulebook.pdf")
    assert code == 1 and "1-goal.md:" in err and "error[remote-url] picture" in err
    assert hits == [] and not (tmp_path / "rulebook.pdf").exists()
