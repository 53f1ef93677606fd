"""`cardtool serve` without a browser: what the studio shows after edits, which faces it lays out again,
and what its server answers (and refuses)."""

from __future__ import annotations

import json
import shutil
import socket
import urllib.error
import urllib.request

import pytest

from cardtool.studio.server import StudioServer
from cardtool.studio.snapshot import Studio
from conftest import DATA


@pytest.fixture
def deck(tmp_path, monkeypatch):
    """A small valid Ecologies deck (a food-web fixture of 12 cards) in a folder of its own."""
    monkeypatch.chdir(tmp_path)
    shutil.copytree(DATA / "expansions" / "base", tmp_path / "deck")
    return tmp_path / "deck"


def edit(path, old, new):
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def test_an_edit_lays_out_only_the_faces_it_changed(deck):
    studio = Studio(deck)
    first = studio.refresh()
    assert first.state == "ok" and not first.stale
    fronts = [c for c in first.cards if c.side == "front"]
    assert len(fronts) == 12 and first.laid_out == len(first.cards)
    assert {p.title for p in first.pictures} == {"Food web of Riparian"}
    edit(deck / "cards.yaml", "name: Willow", "name: Weeping Willow")
    second = studio.refresh()
    changed = {c.key for a, c in zip(first.cards, second.cards) if a.digest != c.digest}
    assert changed == {"willow:front", "caddis:front"}  # the Caddis fly's card names what it eats
    assert second.laid_out == 2 and second.version == first.version + 1
    assert studio.cache.get(next(c.digest for c in second.cards if c.key == "willow:front")).startswith(b"\x89PNG")
    assert studio.refresh().laid_out == 0  # nothing changed: nothing laid out


def test_a_bad_edit_shows_located_errors_beside_the_last_good_cards(deck):
    studio = Studio(deck)
    good = studio.refresh()
    edit(deck / "cards.yaml", "name: Willow", "name: [Willow")
    bad = studio.refresh()
    assert bad.state == "errors" and bad.stale
    assert [c.digest for c in bad.cards] == [c.digest for c in good.cards]
    (issue,) = [i for i in bad.issues if i.severity == "error"]
    assert issue.code == "yaml-syntax" and issue.where.startswith("deck/cards.yaml:")
    line = int(issue.where.split(":")[1])
    assert issue.href == f"/source?file=deck/cards.yaml&line={line}#L{line}"
    edit(deck / "cards.yaml", "name: [Willow", "name: Willow")
    fixed = studio.refresh()
    assert fixed.state == "ok" and not fixed.stale and fixed.laid_out == 0  # the old pictures are still kept


def test_a_validation_error_names_the_card_and_line(deck):
    studio = Studio(deck)
    studio.refresh()
    edit(deck / "cards.yaml", "eaten_by: [caddis]", "eaten_by: [cadis]")
    snapshot = studio.refresh()
    errors = [i for i in snapshot.issues if i.severity == "error"]
    assert errors and all(i.where.startswith("deck/cards.yaml:") for i in errors)
    assert any("cadis" in i.message for i in errors)


def get(url, host=None):
    request = urllib.request.Request(url, headers={"Host": host} if host else {})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """One studio and server for the tests below (laying out the cards once), on a deck named by its
    absolute path (so the files it names are absolute too)."""
    folder = tmp_path_factory.mktemp("served")
    shutil.copytree(DATA / "expansions" / "base", folder / "deck")
    (folder / "secret.yaml").write_text("secret: 1\n")
    (folder / "deck" / "outside.yaml").symlink_to(folder / "secret.yaml")
    studio = Studio(folder / "deck")
    studio.refresh()
    server = StudioServer(studio, 0)
    server.start()
    yield studio, server.url, folder / "deck"
    server.shutdown()
    server.server_close()


def test_the_server_answers_its_routes(served):
    studio, url, deck = served
    status, headers, body = get(url)
    assert status == 200 and b'src="/studio.js"' in body
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    status, _, body = get(url + "state.json")
    state = json.loads(body)
    assert state["state"] == "ok" and len(state["cards"]) == len(studio.snapshot.cards)
    status, headers, body = get(url + state["cards"][0]["src"].lstrip("/"))
    assert status == 200 and headers["Content-Type"] == "image/png" and body.startswith(b"\x89PNG")
    status, headers, body = get(url + state["pictures"][0]["src"].lstrip("/"))
    assert status == 200 and headers["Content-Type"] == "image/svg+xml" and b"<svg" in body
    status, _, body = get(url + f"source?file={deck}/cards.yaml&line=3")
    assert status == 200 and b'<tr id="L3" class=hit>' in body and b"Riparian" in body


def test_the_server_waits_for_the_next_change(served):
    studio, url, deck = served
    version = studio.snapshot.version
    edit(deck / "cards.yaml", "name: Willow", "name: Weeping Willow")
    try:
        studio.refresh()
        status, _, body = get(url + f"state.json?after={version}")
        assert json.loads(body)["version"] == version + 1
    finally:
        edit(deck / "cards.yaml", "name: Weeping Willow", "name: Willow")
        studio.refresh()


@pytest.mark.parametrize("name", ["/etc/passwd", "{deck}/../secret.yaml", "{deck}/outside.yaml", "{deck}",
                                  "nowhere.yaml"])
def test_the_server_shows_no_file_outside_the_deck(served, name):
    studio, url, deck = served
    status, _, body = get(url + f"source?file={name.format(deck=deck)}")
    assert status == 404 and b"secret" not in body


def test_the_server_refuses_other_hosts_and_unknown_routes(served):
    _, url, _ = served
    assert get(url, host="attacker.example")[0] == 403
    assert get(url + "card/nope.png")[0] == 404
    assert get(url + "picture/../../deck.yaml")[0] == 404
    assert get(url + "templates/studio/page.html")[0] == 404


def test_serve_refuses_a_busy_port_clearly(run_cli, deck):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        code, out, err = run_cli("serve", deck, "--port", busy.getsockname()[1])
    assert code == 2 and "choose another --port" in err and "Traceback" not in err
    code, out, err = run_cli("serve", deck, "--port", "70000")
    assert code == 2 and "--port" in err
