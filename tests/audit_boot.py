"""Run cardtool commands under an audit hook that records every file opened and every network attempt.

Usage (the hostile-deck tests run it in a subprocess):

    python -I tests/audit_boot.py LOG.jsonl BATCH.json

BATCH.json holds a list of commands, each `{"argv": [...], "stdout": FILE, "stderr": FILE}`. They run
one after another in this one process (importing cardtool once saves ~2 s a command); file
descriptors 1 and 2 are pointed at each command's files, so output written by C libraries and child
processes is caught too. Each command's exit code goes to BATCH.json + ".results.json".

LOG.jsonl receives one JSON line per audited event (`sys.addaudithook`, PEP 578): `open` (any file
opened through Python: builtins.open, io.open, os.open), directory listings, `socket.*` events,
`urllib.Request`, subprocesses and file removals. The hook is installed before cardtool is imported,
and forked worker processes inherit it (they append to the same file). Relative paths are made
absolute with the working folder of the moment; paths given relative to a `dir_fd` (shutil.rmtree
uses them) cannot be placed and are logged with `"dir_fd": true`.

The hook only observes: it never blocks anything, so a test sees what an unguarded cardtool would do.
"""

from __future__ import annotations

import json
import os
import sys
import time
import traceback

WATCHED = frozenset({
    "open", "os.listdir", "os.scandir", "glob.glob", "os.symlink", "os.remove", "os.rmdir", "os.rename",
    "shutil.rmtree", "shutil.copyfile", "shutil.move", "os.truncate", "os.chmod",
    "socket.connect", "socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyaddr", "socket.bind",
    "socket.sendto", "urllib.Request", "http.client.connect", "subprocess.Popen", "os.system", "os.exec",
    "os.posix_spawn", "os.spawn", "webbrowser.open",
})

_log_fd = -1
_marker = 0


def _text(value):
    if isinstance(value, bytes):
        return value.decode("utf-8", "surrogateescape")
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, (tuple, list)):
        return [_text(v) for v in value]
    try:
        return os.fspath(value)
    except TypeError:
        return repr(value)


def _hook(event: str, args: tuple) -> None:
    if event not in WATCHED or _log_fd < 0:
        return
    try:
        record = {"event": event, "pid": os.getpid(), "command": _marker}
        if event in ("open", "os.listdir", "os.scandir", "os.remove", "os.rmdir", "os.truncate", "os.chmod",
                     "shutil.rmtree", "glob.glob"):
            path = args[0] if args else None
            if isinstance(path, os.PathLike):
                path = os.fspath(path)
            if isinstance(path, (str, bytes)):
                path = _text(path)
                if event == "open" and len(args) > 2:
                    record["mode"], record["flags"] = _text(args[1]), args[2]
                # os.open (mode None) may be given a dir_fd that the event does not carry; os.remove and
                # os.rmdir carry theirs (-1 when none)
                relative_to_fd = (event == "open" and len(args) > 1 and args[1] is None) or \
                    (event in ("os.remove", "os.rmdir") and len(args) > 1 and isinstance(args[1], int) and args[1] >= 0)
                if os.path.isabs(path):
                    record["path"] = path
                elif relative_to_fd:
                    record["path"], record["dir_fd"] = path, True
                else:
                    record["path"] = os.path.join(os.getcwd(), path)
            else:
                record["path"] = None
                record["fd"] = path if isinstance(path, int) else repr(path)
        elif event == "socket.connect":
            sock, address = args[0], args[1]
            record["family"] = int(getattr(sock, "family", -1))
            record["address"] = _text(address)
        else:
            record["args"] = [_text(a) for a in args][:4]
        os.write(_log_fd, (json.dumps(record) + "\n").encode("utf-8", "surrogateescape"))
    except Exception:  # the hook must never change what the program does
        pass


def _run(argv: list[str]) -> int:
    from cardtool.cli import main

    try:
        code = main(argv)
    except SystemExit as exc:  # argparse: usage errors exit 2
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    except BaseException:  # MemoryError, RecursionError... escaping main() are bugs too
        traceback.print_exc()
        code = 71
    return code


def run_batch(batch_file: str) -> None:
    global _marker
    with open(batch_file, encoding="utf-8") as handle:
        batch = json.load(handle)
    results = []
    saved = os.dup(1), os.dup(2)
    for index, command in enumerate(batch, start=1):
        _marker = index
        sys.stdout.flush()
        sys.stderr.flush()
        out = os.open(command["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        err = os.open(command["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(out, 1)
        os.dup2(err, 2)
        os.close(out)
        os.close(err)
        started = time.perf_counter()
        code = _run(command["argv"])
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        results.append({"argv": command["argv"], "code": code, "seconds": round(time.perf_counter() - started, 3)})
        with open(batch_file + ".results.json", "w", encoding="utf-8") as handle:  # written as we go: a
            json.dump(results, handle)                                             # timeout still shows the rest
    _marker = 0


def install(log_path: str) -> None:
    global _log_fd
    _log_fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    sys.addaudithook(_hook)


if __name__ == "__main__":
    log, batch_path = sys.argv[1], sys.argv[2]
    install(log)
    run_batch(batch_path)
