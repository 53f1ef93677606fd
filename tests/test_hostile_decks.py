"""Hostile decks: every case of tests/data/hostile run through the commands a designer would run on a
deck someone handed them (validate, info, render cards/images/rulebook, build, play, simulate, and
`--out` aimed at the deck itself), in subprocesses watched by an audit hook (tests/audit_boot.py). Cases
that may hang, exhaust memory or take long run in a process of their own; the others share one, since
importing cardtool costs ~2 s of CPU a process (each command's audit events carry its number, and each
case has its own HTTP server, so every finding is charged to the case that caused it).

For each case and command the test asserts the exit code, the located message with the expected code
(`path:line:col: error[CODE]`), no traceback, that the text of the files in tests/data/hostile/_outside
never appears in any output, that nothing outside the allowed roots was opened or listed, that no
network connection was attempted, that the local HTTP server the remote-URL cases point at received no
connection, and that the deck folder is byte-for-byte what it was before the commands ran.

Every case is copied into a temporary folder first ({PORT} and {OUTSIDE} in its text files become the
test server's port and the absolute path of the copied _outside folder), so a command that destroys
its deck or writes into it cannot damage the committed corpus. Cases that cannot be committed (a
named pipe, a link to /dev/zero, a link loop, a non-UTF-8 file name, a 50 MB file) get their special
file from the test.
"""

from __future__ import annotations

import hashlib
import http.server
import json
import os
import re
import resource
import shutil
import signal
import socket
import stat
import subprocess
import sys
import sysconfig
import threading
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import DATA, ROOT

HOSTILE = DATA / "hostile"
BOOT = Path(__file__).resolve().parent / "audit_boot.py"
SECRET = "H4-SECRET-7b1e9c"  # written in every file of _outside/; never to be printed or opened
MEMORY_LIMIT = 4 << 30  # address space of a run: a deck that makes cardtool exhaust memory fails, fast

LOAD = ("validate", "info", "play", "simulate")  # commands that only load the deck and use its data
QUICK = ("validate", "info", "play")  # for decks whose problem is in what only printing reads
RENDER = ("cards", "images", "rulebook", "build")  # commands that print it
MISUSE = ("out-deck-images", "out-deck-build", "out-deck-cards")  # --out aimed at the deck folder itself
ALL = LOAD + RENDER


def command_argv(name: str, deck: Path, out: Path, sim_games: int = 0) -> list[str]:
    deck, out = str(deck), str(out)
    return {
        "validate": ["validate", deck],
        "info": ["info", deck],
        "cards": ["render", "cards", deck, "--out", f"{out}/cards.pdf"],
        "images": ["render", "images", deck, "--out", f"{out}/images", "--dpi", "72"],
        "rulebook": ["render", "rulebook", deck, "--out", f"{out}/rulebook.pdf"],
        "build": ["build", deck, "--out", f"{out}/build", "--sim-games", str(sim_games), "--dpi", "72"],
        "play": ["play", deck, "--seed", "1", "--quiet"],
        "simulate": ["simulate", deck, "--games", "2", "--seed", "1", "--jobs", "1", "--out", f"{out}/sim"],
        "out-deck-images": ["render", "images", deck, "--out", deck, "--dpi", "72"],
        "out-deck-build": ["build", deck, "--out", deck, "--sim-games", "0", "--dpi", "72"],
        "out-deck-cards": ["render", "cards", deck, "--out", deck],  # a folder where a PDF file is wanted
    }[name]


# -- what each case must give ------------------------------------------------------------------------


@dataclass(frozen=True)
class Error:
    """Exit 1 and `FILE:LINE:COL: error[CODE]` for one of codes (any code when empty), FILE ending with
    file, LINE the first line of it holding `near` (any line when near is None)."""

    codes: tuple[str, ...]
    file: str
    near: str | None = None
    files: tuple[str, ...] = ()  # other files the error may be located in instead


@dataclass(frozen=True)
class Refused:
    """A reference inside a file's content (Markdown, SVG) refused: exit 1 with the located error, or
    exit 0 with a located warning of one of codes naming the file."""

    codes: tuple[str, ...]
    file: str
    near: str | None = None


@dataclass(frozen=True)
class Safe:
    """Either a safe success (exit 0: nothing fetched, the audit clean) or exit 1 with the located error:
    for raw HTML in Markdown, which a renderer may refuse or simply print as text."""

    codes: tuple[str, ...]
    file: str
    near: str | None = None
    files: tuple[str, ...] = ()


OK = "ok"


@dataclass(frozen=True)
class Case:
    name: str
    every: Error | str | None = None  # what every command gives (None: see load/render)
    load: Error | str | None = None  # what LOAD commands give; "either": ok, or the render error
    render: Error | Refused | str | None = None  # what RENDER commands give
    deck: str = ""  # the deck to run, inside the case folder
    commands: tuple[str, ...] = ALL
    timeout: float = 240
    slow: bool = False
    build_sim: int = 0  # games in build's short simulation (simulate itself runs for every case that loads)
    alone: bool = False  # in a process of its own (may hang, exhaust memory, or is slow); others share one

    def __post_init__(self):
        if self.slow or self.timeout != 240:
            object.__setattr__(self, "alone", True)

    def expected(self, command: str):
        if self.every is not None:
            return self.every
        return self.load if command in LOAD else self.render


OUTSIDE_DECK = ("outside-deck",)
REMOTE = ("remote-url",)
# The codes docs/errors.md gives each problem (kept together so the cases below read as the issue does)
SELECTOR = ("no-match",)  # an include/exclude entry no base card has
UNKNOWN_REF = ("unknown-ref",)  # an override of a card no base has
AMBIGUOUS = ("ambiguous-base",)
BOUNDS = ("too-large",)
FILE_SIZE = ("file-too-large",)

CASES = [
    Case("ok", every=OK, slow=True, build_sim=2),
    Case("symlink-inside", every=OK, commands=LOAD + ("cards",)),
    Case("markup-names", every=OK, slow=True, build_sim=2),
    Case("card-symlink-out", every=Error(OUTSIDE_DECK, "deck.yaml", "extra.yaml")),
    Case("card-symlink-text", every=Error(OUTSIDE_DECK, "deck.yaml", "notes.yaml")),
    Case("glob-symlink-folder", every=Error(OUTSIDE_DECK, "deck.yaml", "more/*.yaml")),
    Case("glob-recursive-symlink", every=OK, commands=LOAD + ("cards",)),  # ** never enters the link
    Case("glob-symlink-loop", every=OK, commands=LOAD, timeout=90),
    Case("art-dotdot", every=Error(OUTSIDE_DECK, "cards.yaml", "../_outside/secret.svg")),
    Case("art-absolute", every=Error(OUTSIDE_DECK, "cards.yaml", "/secret.svg")),
    Case("art-symlink", every=Error(OUTSIDE_DECK, "cards.yaml", "art: art/heron.svg", files=("heron.svg",))),
    Case("art-url", every=Error(REMOTE + OUTSIDE_DECK, "cards.yaml", "art-url.png")),
    Case("svg-art-external", every=Error(REMOTE + OUTSIDE_DECK, "heron.svg", None, files=("cards.yaml",))),
    Case("icon-external", load="either", render=Refused(REMOTE, "icons/biomes/RIP.svg", "icon.png"),
         commands=QUICK + ("cards", "images", "build"), slow=True),
    Case("icon-symlink", load="either", render=Error(OUTSIDE_DECK, "RIP.svg", None, files=("deck.yaml",)),
         commands=QUICK + ("cards", "images", "build")),
    Case("rulebook-symlink", every=Error(OUTSIDE_DECK, "deck.yaml", "rules.md")),
    Case("rulebook-dotdot", every=Error(OUTSIDE_DECK, "deck.yaml", "../_outside/secret.md")),
    Case("markdown-image-remote", load="either", render=Refused(REMOTE, "rules.md", "md-image.png"),
         commands=QUICK + ("rulebook", "build"), slow=True),
    Case("markdown-html-remote", load="either", render=Safe(REMOTE, "rules.md", "html-image.png"),
         commands=QUICK + ("rulebook",)),
    Case("markdown-image-outside", load="either", render=Refused(OUTSIDE_DECK, "rules.md", "../_outside/secret.svg"),
         commands=QUICK + ("rulebook",)),
    Case("score-directive-outside", load="either", render=Error(OUTSIDE_DECK, "rules.md", "cardtool:score"),
         commands=QUICK + ("rulebook",)),
    Case("rulebook-fifo", load="either", render=Safe((), "rules.md", None, ("deck.yaml",)), commands=QUICK + ("rulebook",),
         timeout=90),
    Case("score-directive-fifo", load="either", render=Safe((), "rules.md", None, ("position.yaml",)),
         commands=QUICK + ("rulebook",), timeout=90),
    Case("count-billion", every=Error(BOUNDS, "cards.yaml", "count: 1000000000"), timeout=120),
    Case("deck-too-large", every=Error(("deck-too-large",), "deck.yaml", None)),
    Case("deeply-nested", every=Error((), "cards.yaml"), timeout=120),
    Case("dir-named-like-card", every=Error(("missing-file",), "deck.yaml", "extra.yaml")),
    Case("deck-yaml-symlink", every=Error(OUTSIDE_DECK, "deck.yaml")),
    Case("card-fifo", every=Error((), "deck.yaml", "extra.yaml", files=("extra.yaml",)), timeout=90),
    Case("art-fifo", every=Error((), "cards.yaml", "art: art/heron.svg", files=("heron.svg",)), timeout=90),
    Case("card-symlink-loop", every=Error(OUTSIDE_DECK + ("missing-file",), "deck.yaml", "extra.yaml"), timeout=90),
    Case("card-dev-zero", every=Error(OUTSIDE_DECK, "deck.yaml", "extra.yaml"), timeout=90),
    Case("non-utf8-filename", every=Error(("yaml-syntax", "encoding", "bad-value"), ".yaml"), timeout=90),
    Case("huge-file", every=Error(FILE_SIZE, "big.yaml", None, files=("deck.yaml",)), timeout=90),
    Case("exclude-misspelt-id", deck="exp", every=Error(SELECTOR, "exp/deck.yaml", "wilow")),
    Case("include-misspelt-tag", deck="exp", every=Error(SELECTOR, "exp/deck.yaml", "trees")),
    Case("exclude-misspelt-kind", deck="exp", every=Error(SELECTOR, "exp/deck.yaml", "organsim")),
    Case("exclude-misspelt-biome", deck="exp", every=Error(SELECTOR, "exp/deck.yaml", "RIPP")),
    Case("overrides-unknown-id", deck="exp", every=Error(UNKNOWN_REF, "exp/deck.yaml", "eagel")),
    Case("extends-ambiguous", deck="exp", every=Error(AMBIGUOUS, "exp/deck.yaml", "twin")),
    Case("extends-escape", deck="exp", every=Error(("unknown-base", "outside-deck"), "exp/deck.yaml", "extends:")),
]
HINTS = {  # words the message (with its hint) must hold besides the code: "did you mean" for selectors
    "exclude-misspelt-id": "willow", "include-misspelt-tag": "tree", "exclude-misspelt-kind": "organism",
    "exclude-misspelt-biome": "RIP", "overrides-unknown-id": "eagle", "extends-ambiguous": "base-b",
}


def test_every_corpus_folder_has_a_case():
    folders = sorted(p.name for p in HOSTILE.iterdir() if p.is_dir() and not p.name.startswith("_"))
    assert folders == sorted(c.name for c in CASES)


def test_committed_links_are_relative_and_stay_in_the_corpus():
    for path in HOSTILE.rglob("*"):
        if path.is_symlink():
            target = os.readlink(path)
            assert not os.path.isabs(target), path
            assert (path.parent / target).resolve().is_relative_to(HOSTILE.resolve()), path


# -- the special files no commit can hold --------------------------------------------------------------


def _prepare(case: str, deck: Path, outside: Path) -> None:
    if case == "card-fifo":
        os.mkfifo(deck / "extra.yaml")
    elif case == "rulebook-fifo":
        os.mkfifo(deck / "rules.md")
    elif case == "score-directive-fifo":
        os.mkfifo(deck / "examples" / "position.yaml")
    elif case == "art-fifo":
        os.mkfifo(deck / "art" / "heron.svg")
    elif case == "card-symlink-loop":
        os.symlink("extra.yaml", deck / "extra.yaml")
    elif case == "card-dev-zero":
        os.symlink("/dev/zero", deck / "extra.yaml")
    elif case == "glob-symlink-loop":
        os.symlink("..", deck / "cards" / "loop")  # cards/loop/cards/loop/... for ever
    elif case == "non-utf8-filename":
        name = os.fsencode(deck / "cards") + b"/caf\xe9-\xff.yaml"
        with open(name, "wb") as handle:
            handle.write(b"cards: [unclosed\n")
    elif case == "huge-file":
        card = ("- id: filler-{n}\n  kind: factor\n  name: Filler {n}\n  factor: abiotic\n  placement: discard\n"
                "  text: Draw a card.\n  effects: [{{trigger: play, action: draw, amount: 1}}]\n")
        with open(deck / "big.yaml", "w", encoding="utf-8") as handle:
            handle.write("cards:\n")
            n = 0
            while handle.tell() < 50 * 2**20:
                handle.write("".join(card.format(n=n + i) for i in range(1000)))
                n += 1000


# -- the local server the remote-URL cases point at -------------------------------------------------------


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    connections: list

    def get_request(self):
        conn, address = super().get_request()
        self.connections.append(address)  # any TCP connection counts, even one that sends no request
        return conn, address


class _Handler(http.server.BaseHTTPRequestHandler):
    timeout = 5

    def _any(self):
        self.server.requests.append((self.command, self.path))
        self.send_error(404)

    do_GET = do_HEAD = do_POST = do_PUT = _any

    def log_message(self, *args):
        pass


def start_server() -> _Server:
    """A threaded HTTP server on 127.0.0.1 that records every connection and request and answers 404."""
    httpd = _Server(("127.0.0.1", 0), _Handler)
    httpd.connections, httpd.requests = [], []
    httpd.thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.5}, daemon=True)
    httpd.thread.start()
    return httpd


def stop_server(httpd: _Server) -> None:
    httpd.shutdown()
    httpd.server_close()
    httpd.thread.join(5)


@pytest.fixture
def server():
    httpd = start_server()
    yield httpd
    stop_server(httpd)


@pytest.fixture(scope="module")
def session_dirs(tmp_path_factory):
    """HOME, caches and matplotlib's config shared by the module's runs (font caches are built once)."""
    base = tmp_path_factory.mktemp("hostile-home")
    dirs = {name: base / name for name in ("home", "cache", "mpl")}
    for path in dirs.values():
        path.mkdir()
    # matplotlib builds its font list on first use: it runs fc-list and scans every font folder it knows
    # of (X11, OpenOffice...). Done here, unwatched, once; the audited runs then read the cached list.
    subprocess.run([sys.executable, "-I", "-c", "import matplotlib.font_manager"], check=True, timeout=300,
                   env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(dirs["home"]),
                        "XDG_CACHE_HOME": str(dirs["cache"]), "MPLCONFIGDIR": str(dirs["mpl"])})
    return dirs


# -- running commands under the audit hook -----------------------------------------------------------------


@dataclass
class Run:
    results: list[dict]
    outputs: dict[int, str]  # command number (1-based) -> stdout + stderr
    events: list[dict]
    timed_out: bool = False
    running: str = ""
    timeout: float = 0


def _limits():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def run_audited(argvs: list[list[str]], work: Path, dirs: dict, timeout: float) -> Run:
    """Run cardtool commands one after another in one audited subprocess (see tests/audit_boot.py)."""
    work.mkdir(parents=True, exist_ok=True)
    tmp = work / "tmp"
    tmp.mkdir(exist_ok=True)
    log = work / "audit.jsonl"
    batch = [{"argv": argv, "stdout": str(work / f"{i}.out"), "stderr": str(work / f"{i}.err")}
             for i, argv in enumerate(argvs, start=1)]
    (work / "batch.json").write_text(json.dumps(batch))
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(dirs["home"]),
           "XDG_CACHE_HOME": str(dirs["cache"]), "MPLCONFIGDIR": str(dirs["mpl"]), "TMPDIR": str(tmp),
           "CARDTOOL_WORKERS": "1", "LANG": "C.UTF-8", "PYTHONIOENCODING": "utf-8", "COLUMNS": "100",
           "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    process = subprocess.Popen([sys.executable, "-I", str(BOOT), str(log), str(work / "batch.json")],
                               cwd=work, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, preexec_fn=_limits, start_new_session=True)
    timed_out = False
    try:
        process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        os.killpg(process.pid, signal.SIGKILL)  # the process group: forked workers too
        process.communicate()
    results_file = work / "batch.json.results.json"
    results = json.loads(results_file.read_text()) if results_file.exists() else []
    outputs = {}
    for i in range(1, len(argvs) + 1):
        text = ""
        for suffix in (".out", ".err"):
            path = work / f"{i}{suffix}"
            if path.exists():
                text += path.read_text(encoding="utf-8", errors="replace")
        outputs[i] = text
    events = [json.loads(line) for line in log.read_text(encoding="utf-8", errors="surrogateescape").splitlines()
              if line.strip()] if log.exists() else []
    running = " ".join(argvs[len(results)]) if timed_out and len(results) < len(argvs) else ""
    return Run(results, outputs, events, timed_out, running, timeout)


# -- what may be opened ------------------------------------------------------------------------------------


def _real(path: str) -> str:
    return os.path.realpath(path)


def _plugin_roots() -> list[str]:
    """The folders of installed game plugins (cardtool.games entry points): part of the program too."""
    import importlib.util
    from importlib.metadata import entry_points

    roots = []
    for point in entry_points(group="cardtool.games"):
        spec = importlib.util.find_spec(point.value.partition(":")[0].split(".")[0])
        if spec is not None and spec.origin:
            roots.append(str(Path(spec.origin).resolve().parent.parent))  # the folder on sys.path
    return roots


def allowed_roots(decks: list[Path], work: Path, dirs: dict) -> list[str]:
    roots = [*decks, work, *dirs.values(),
             ROOT / "cardtool", ROOT / "templates", ROOT / "schemas",  # the program and what it ships
             *_plugin_roots(),  # installed game plugins, e.g. examples/plugins/hedgerow (editable)
             BOOT,  # the audit bootstrap itself (run as the script)
             sys.prefix, sys.base_prefix, sys.exec_prefix,  # the venv, site-packages and the stdlib
             *{sysconfig.get_path(name) for name in ("stdlib", "platstdlib", "purelib", "platlib")},
             # fonts and their configuration (WeasyPrint's Pango/fontconfig, matplotlib's font list)
             "/usr/share/fonts", "/usr/local/share/fonts", "/etc/fonts", "/usr/share/fontconfig",
             "/var/cache/fontconfig",
             "/dev/null", "/dev/urandom", "/proc/self", "/dev/shm",  # multiprocessing semaphores
             "/etc/mime.types",  # mimetypes.init() (WeasyPrint guesses types of local files with it)
             "/etc/localtime", "/usr/share/zoneinfo",
             ]
    return sorted({_real(str(r)) for r in roots})


def _inside(path: str, roots: list[str]) -> bool:
    return any(path == root or path.startswith(root.rstrip("/") + "/") for root in roots)


def audit_problems(run: Run, roots: list[str], outside: Path) -> list[str]:
    """Everything the run opened or listed outside the roots, and every network attempt."""
    problems = []
    outside_real = _real(str(outside))
    for event in run.events:
        name, path = event["event"], event.get("path")
        where = f"(command {event.get('command')}, pid {event.get('pid')})"
        if name in ("open", "os.listdir", "os.scandir", "glob.glob") and path:
            if event.get("dir_fd"):
                # relative to a folder descriptor (shutil.rmtree, os.fwalk): the folder is not known, so
                # only the name is checked
                if SECRET in path or "_outside" in path:
                    problems.append(f"{name} {path} {where}")
                continue
            if name == "glob.glob":
                path = path.split("*")[0].split("?")[0].split("[")[0] or "/"
            real = _real(path)
            if name == "os.listdir" and real == _real(str(ROOT)):
                continue  # the import system lists the folders on sys.path; an editable install puts ROOT there
            if _inside(real, [outside_real]) or _inside(os.path.abspath(path), [outside_real]):
                problems.append(f"{name} of the outside secret {path} -> {real} {where}")
            elif not _inside(real, roots):
                problems.append(f"{name} outside the allowed roots: {path} -> {real} {where}")
        elif name == "socket.connect":
            # AF_UNIX (1) would be a local socket (a font or session daemon): none has been seen, and a
            # connection to one is no network request; every other family is the network
            if event.get("family") != socket.AF_UNIX:
                problems.append(f"network connection to {event.get('address')} {where}")
        elif name in ("socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyaddr", "socket.sendto",
                      "http.client.connect"):
            problems.append(f"{name} {event.get('args')} {where}")
        elif name == "urllib.Request":
            url = str((event.get("args") or [""])[0])
            if url.startswith("file:"):
                from urllib.parse import unquote, urlsplit

                local = _real(unquote(urlsplit(url).path))
                if not _inside(local, roots) or _inside(local, [outside_real]):
                    problems.append(f"fetched {url} {where}")
            elif not url.startswith("data:"):
                problems.append(f"fetched {url} {where}")
        elif name in ("subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "webbrowser.open"):
            args = event.get("args") or [""]
            program = os.path.basename(str(args[0]))
            if program in ("ldconfig", "gcc", "cc", "ld") and any(str(a).startswith("-l") or a == "-p"
                                                                   for a in (args[1] if len(args) > 1 else [])):
                continue  # ctypes.util.find_library looking for Pango and GObject when WeasyPrint loads them
            problems.append(f"started a program: {name} {event.get('args')} {where}")
    return problems


# -- the deck folder, before and after ---------------------------------------------------------------------


def snapshot(folder: Path) -> dict[str, tuple]:
    """Every entry below folder, links not followed: kind and content hash or link target."""
    entries = {}
    for top, dirs, files in os.walk(folder, followlinks=False):
        for name in dirs + files:
            path = Path(top) / name
            rel = os.fsdecode(path.relative_to(folder))
            mode = path.lstat().st_mode
            if stat.S_ISLNK(mode):
                entries[rel] = ("link", os.readlink(path))
            elif stat.S_ISDIR(mode):
                entries[rel] = ("dir",)
            elif stat.S_ISREG(mode):
                entries[rel] = ("file", hashlib.sha256(path.read_bytes()).hexdigest())
            else:
                entries[rel] = ("special", stat.S_IFMT(mode))
    return entries


def materialise(case: Case, top: Path, port: int) -> tuple[Path, Path, Path]:
    """The case and _outside copied into top/, placeholders filled: (case folder, deck, outside)."""
    outside = top / "_outside"
    if not outside.exists():
        shutil.copytree(HOSTILE / "_outside", outside, symlinks=True)
    folder = top / case.name
    shutil.copytree(HOSTILE / case.name, folder, symlinks=True)
    for path in folder.rglob("*"):
        if path.is_file() and not path.is_symlink() and path.suffix in (".yaml", ".md", ".svg"):
            text = path.read_text(encoding="utf-8")
            if "{PORT}" in text or "{OUTSIDE}" in text:
                path.write_text(text.replace("{PORT}", str(port)).replace("{OUTSIDE}", str(outside)))
    deck = folder / case.deck if case.deck else folder
    _prepare(case.name, deck, outside)
    return folder, deck, outside


def _line_of(file: Path, needle: str | None) -> int | None:
    if needle is None or not file.is_file():
        return None
    for number, line in enumerate(file.read_text(encoding="utf-8", errors="replace").splitlines(), start=1):
        if needle in line and not line.lstrip().startswith("#"):  # comments of the corpus name files too
            return number
    return None


def _located(text: str, severity: str, codes: tuple[str, ...], file: str, line: int | None,
             optional_position: bool = False) -> bool:
    code = "|".join(re.escape(c) for c in codes) if codes else r"[a-z0-9-]+"
    position = rf":{line}:\d+" if line else r":\d+:\d+"
    if optional_position:
        position = f"(?:{position})?"
    folder, _, name = file.rpartition("/")
    start = rf"(?:^|[\s/]){re.escape(folder)}/" if folder else r"(?:^|[\s/])"
    if name.startswith("."):  # only the suffix is known (a file name that is not UTF-8)
        start = ""
    pattern = rf"{start}{re.escape(name)}{position}: {severity}\[(?:{code})\]"
    if not codes and severity == "error":  # no code expected: a message placed at the file is enough
        pattern = rf"{start}{re.escape(name)}{position}: (?:error\[[a-z0-9-]+\] )?\S"
    return re.search(pattern, text, re.MULTILINE) is not None


def check_command(case: Case, command: str, code: int, text: str, deck: Path) -> list[str]:
    expected = case.expected(command)
    problems = []
    if "Traceback" in text or code in (70, 71):
        problems.append(f"traceback (exit {code})")
    if SECRET in text:
        problems.append("printed the outside file's content")
    if expected == OK:
        if code != 0:
            problems.append(f"exit {code}, expected 0")
        return problems
    if expected == "either":
        render = case.render
        if code != 0 and not (code == 1 and (_matches(render, text, deck) or _located(
                text, "error", render.codes, render.file, None))):
            problems.append(f"exit {code}, expected 0 or 1 with {render}")
        return problems
    if isinstance(expected, Safe):
        if code == 0 or (code == 1 and any(_located(text, "error", expected.codes, file, None, True)
                                           for file in (expected.file, *expected.files))):
            return problems
        problems.append(f"exit {code}; expected 0, or 1 with a located error[{'|'.join(expected.codes)}] in {expected.file}")
        return problems
    if isinstance(expected, Refused):
        line = _line_of(deck / expected.file, expected.near)
        if code == 1 and _located(text, "error", expected.codes, expected.file, line):
            return problems
        if code == 0 and _located(text, "warning", expected.codes, expected.file, line):
            return problems
        problems.append(f"exit {code}; expected exit 1 with {expected.file}:{line or 'LINE'}:COL: error[{'|'.join(expected.codes)}]"
                        f" or exit 0 with a located warning")
        return problems
    if code != 1:
        problems.append(f"exit {code}, expected 1")
    if not _matches(expected, text, deck):
        problems.append(f"no located error[{'|'.join(expected.codes) or 'any'}] in {expected.file}"
                        f"{':' + str(_line_of(deck / expected.file, expected.near)) if expected.near else ''}")
    words = HINTS.get(case.name)
    if words and words not in text:
        problems.append(f"no hint naming '{words}'")
    return problems


def _matches(expected: Error | Refused, text: str, deck: Path) -> bool:
    line = _line_of(deck / expected.file, expected.near) if expected.near else None
    # a problem with a whole file that no deck file names (an icon found by its name, deck.yaml itself, a
    # file too big to read) may be located by the file alone
    optional = expected.near is None
    if _located(text, "error", expected.codes, expected.file, line, optional):
        return True
    return any(_located(text, "error", expected.codes, other, None) for other in getattr(expected, "files", ()))


@dataclass
class Prepared:
    """A case copied and ready: its folder, deck, outputs folder, commands, and the server it points at."""

    case: Case
    folder: Path
    deck: Path
    outside: Path
    out: Path
    names: list[str]
    argvs: list[list[str]]
    before: dict
    server: _Server
    connections: int = 0


def prepare(case: Case, top: Path, out: Path, server: _Server) -> Prepared:
    folder, deck, outside = materialise(case, top, server.server_address[1])
    names = list(case.commands) + list(MISUSE)
    argvs = [command_argv(name, deck, out / name, case.build_sim) for name in names]
    return Prepared(case, folder, deck, outside, out, names, argvs, snapshot(folder), server, len(server.connections))


def check_case(p: Prepared, run: Run, first: int, work: Path, session_dirs: dict) -> list[str]:
    """Everything wrong with one case's commands, numbered first, first + 1, ... in the run."""
    case, deck, out = p.case, p.deck, p.out
    failures = []
    if run.timed_out and len(run.results) < first - 1 + len(p.names):
        failures.append(f"timed out after {run.timeout} s while running: cardtool {run.running}")
    results = run.results[first - 1:first - 1 + len(p.names)]
    for index, (name, result) in enumerate(zip(p.names, results), start=first):
        text = run.outputs.get(index, "")
        if name in MISUSE:
            wanted = (2,) if case.expected("validate") == OK else (1, 2)
            problems = [f"exit {result['code']}, expected {' or '.join(map(str, wanted))} (--out is the deck folder)"] \
                if result["code"] not in wanted else []
            if "Traceback" in text:
                problems.append("traceback")
            if SECRET in text:
                problems.append("printed the outside file's content")
        else:
            problems = check_command(case, name, result["code"], text, deck)
        if problems:
            failures.append(f"cardtool {' '.join(result['argv'][:2])} ...: {'; '.join(problems)}\n"
                            + _indent(text))
    mine = range(first, first + len(p.names))
    events = Run([], {}, [e for e in run.events if e.get("command") in mine or e.get("command") == 0])
    roots = allowed_roots([p.folder], work, session_dirs) + [_real(str(out))]
    failures += audit_problems(events, roots, p.outside)[:20]
    manifest = _real(str(p.deck / "deck.yaml"))
    if case.name != "deck-yaml-symlink" and not any(
            e["event"] == "open" and e.get("path") and _real(e["path"]) == manifest for e in events.events):
        failures.append("the audit log shows no open of the deck's deck.yaml: the hook saw nothing of this case")
    if len(p.server.connections) != p.connections:
        failures.append(f"the local HTTP server received {len(p.server.connections) - p.connections} "
                        f"connection(s): {p.server.requests[-5:]}")
    after = snapshot(p.folder)
    if after != p.before:
        lost = sorted(set(p.before) - set(after))
        changed = sorted(k for k in p.before if k in after and p.before[k] != after[k])
        added = sorted(set(after) - set(p.before))
        failures.append(f"the deck folder changed: lost {lost[:10]}, changed {changed[:10]}, added {added[:10]}")
    for path in out.rglob("*") if out.exists() else ():
        if path.is_file() and path.suffix in (".html", ".json", ".jsonl", ".csv", ".svg", ".txt", ".md"):
            if SECRET in path.read_text(encoding="utf-8", errors="replace"):
                failures.append(f"{path.relative_to(out)} holds the outside file's content")
    if case.name == "markup-names":
        failures += markup_problems(out)
    if case.every == OK:
        failures += outputs_missing(case, out)
    return failures


def run_case(case: Case, tmp_path: Path, server, session_dirs) -> None:
    """One case in a process of its own: cases that may hang, exhaust memory or take long."""
    p = prepare(case, tmp_path / "h", tmp_path / "out", server)
    work = tmp_path / "work"
    run = run_audited(p.argvs, work, session_dirs, case.timeout)
    failures = check_case(p, run, 1, work, session_dirs)
    assert not failures, f"case {case.name}:\n" + "\n".join(failures)


def _indent(text: str, limit: int = 1500) -> str:
    text = text if len(text) <= limit else text[:limit] + " [...]"
    return "".join("    | " + line + "\n" for line in text.splitlines())


def outputs_missing(case: Case, out: Path) -> list[str]:
    """A valid deck's commands must have made their outputs (an exit 0 that wrote nothing is no success)."""
    wanted = {"cards": "cards/cards.pdf", "rulebook": "rulebook/rulebook.pdf", "build": "build/build/index.html",
              "simulate": "simulate/sim/report.html"}
    missing = [path for name, path in wanted.items() if name in case.commands and not (out / path).is_file()]
    if "images" in case.commands and not list((out / "images" / "images").glob("*.png")):
        missing.append("images/images/*.png")
    return [f"missing output {path}" for path in missing]


MARKUP_NAMES = ("$\\frac{1}{0}$ Algae $x^", "{{ 7*191 }} {% if true %}jinja{% endif %}", "<script>alert(1)</script>",
                "]]> <!-- Mayfly")


def markup_problems(out: Path) -> list[str]:
    """Card names written as markup reach HTML and SVG escaped, print as written in the PDFs, and no
    template evaluates them (7*191 would print 1337)."""
    import pypdf

    problems = []
    escaped_seen = []
    for path in out.rglob("*"):
        if not path.is_file() or path.suffix not in (".html", ".svg"):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        rel = path.relative_to(out)
        if "<script>alert(1)</script>" in text:
            problems.append(f"{rel}: a card name reached HTML unescaped")
        if re.search(r"<img src=http://127\.0\.0\.1", text):
            problems.append(f"{rel}: a card name's <img> reached HTML unescaped")
        if "&lt;script&gt;alert(1)&lt;/script&gt;" in text:
            escaped_seen.append(str(rel))
    if not any(name.endswith("report.html") for name in escaped_seen):
        problems.append("the simulation report does not show the card name <script>... (escaped)")
    for pdf in ("cards/cards.pdf", "build/build/cards.pdf"):
        if not (out / pdf).is_file():
            continue
        text = "".join(page.extract_text() for page in pypdf.PdfReader(out / pdf).pages)
        missing = [name for name in MARKUP_NAMES if name not in text]
        if missing:
            problems.append(f"{pdf} does not print these texts as written: {missing}")
        if "1337" in text:
            problems.append(f"{pdf}: a Jinja expression in a flavour text was evaluated")
    return problems


@pytest.fixture(scope="module")
def grouped(tmp_path_factory, session_dirs):
    """The cases that cannot hang or take long, run one after another in one audited process (importing
    cardtool costs ~2 s of CPU a process). Each case has its own HTTP server, so a request is charged to
    the case that made it; the audit events carry the number of the command that raised them."""
    base = tmp_path_factory.mktemp("hostile-grouped")
    prepared, argvs, first = {}, [], {}
    for case in CASES:
        if case.alone:
            continue
        p = prepare(case, base / "h", base / "out" / case.name, start_server())
        prepared[case.name] = p
        first[case.name] = len(argvs) + 1
        argvs += p.argvs
    work = base / "work"
    run = run_audited(argvs, work, session_dirs, timeout=600)
    yield prepared, run, first, work
    for p in prepared.values():
        stop_server(p.server)


@pytest.mark.parametrize("case", [pytest.param(c, id=c.name, marks=[pytest.mark.slow] if c.slow else [])
                                  for c in CASES])
def test_hostile_deck(case, request, session_dirs):
    if case.alone:
        server = start_server()
        try:
            run_case(case, request.getfixturevalue("tmp_path"), server, session_dirs)
        finally:
            stop_server(server)
        return
    prepared, run, first, work = request.getfixturevalue("grouped")
    failures = check_case(prepared[case.name], run, first[case.name], work, session_dirs)
    assert not failures, f"case {case.name}:\n" + "\n".join(failures)


# -- the watchers themselves: each must see what it is there to see ---------------------------------------


def test_the_audit_hook_sees_an_outside_open_and_a_connection(tmp_path, server, session_dirs):
    """Without this, a silent hook (or a server that counts nothing) would let every case pass."""
    outside = tmp_path / "h" / "_outside"
    shutil.copytree(HOSTILE / "_outside", outside)
    work = tmp_path / "work"
    work.mkdir()
    log = work / "audit.jsonl"
    port = server.server_address[1]
    script = (f"import sys; sys.path.insert(0, {str(BOOT.parent)!r}); import audit_boot; "
              f"audit_boot.install({str(log)!r}); open({str(outside / 'secret.txt')!r}).read(); "
              "import urllib.request\n"
              "try:\n"
              f"    urllib.request.urlopen('http://127.0.0.1:{port}/probe', timeout=5)\n"
              "except Exception:\n"
              "    pass\n")
    before = len(server.connections)
    subprocess.run([sys.executable, "-I", "-c", script], cwd=work, check=True, timeout=60)
    run = Run([], {}, [json.loads(line) for line in log.read_text().splitlines()])
    problems = audit_problems(run, allowed_roots([], work, session_dirs), outside)
    assert any("secret.txt" in p for p in problems), problems
    assert any("network connection" in p for p in problems), problems
    assert any(p.startswith("fetched http://127.0.0.1") for p in problems), problems
    assert len(server.connections) == before + 1 and server.requests[-1] == ("GET", "/probe")


@pytest.mark.slow
def test_a_valid_deck_run_is_clean_and_its_opens_are_seen(tmp_path, server, session_dirs):
    """The control deck: the hook records the deck's files and the templates being read, and finds
    nothing outside the roots; so a case whose log shows no outside open really opened none."""
    case = Case("ok", every=OK, commands=("validate", "cards"))
    folder, deck, outside = materialise(case, tmp_path / "h", server.server_address[1])
    run = run_audited([command_argv(n, deck, tmp_path / "out" / n) for n in case.commands], tmp_path / "work",
                      session_dirs, 120)
    assert [r["code"] for r in run.results] == [0, 0], run.outputs
    opened = {_real(e["path"]) for e in run.events if e["event"] == "open" and e.get("path") and not e.get("dir_fd")}
    assert _real(str(deck / "cards.yaml")) in opened
    assert _real(str(deck / "art" / "heron.svg")) in opened
    assert any(p.startswith(_real(str(ROOT / "templates"))) for p in opened)
    roots = allowed_roots([folder], tmp_path / "work", session_dirs) + [_real(str(tmp_path / "out"))]
    assert audit_problems(run, roots, outside) == []


def test_score_never_echoes_a_position_file(tmp_path, session_dirs):
    """`cardtool score DECK FILE` names a file on the command line: reading it is the user's choice, but an
    error must not print what a file that is not a position holds (think /etc/passwd)."""
    outside = HOSTILE / "_outside"
    run = run_audited([["score", str(ROOT / "decks" / "symbiosis"), str(outside / "secret.txt")],
                       ["score", str(ROOT / "decks" / "symbiosis"), str(outside / "secret-cards.yaml")]],
                      tmp_path / "work", session_dirs, 120)
    for result, index in zip(run.results, (1, 2)):
        text = run.outputs[index]
        assert result["code"] == 1, text
        assert "Traceback" not in text
        assert SECRET not in text, text
        assert re.search(r"secret[-a-z]*\.(txt|yaml):\d+:\d+: error\[", text), text
