"""Writing outputs without ever destroying what cardtool did not make.

Every output folder holds a manifest, `.cardtool-manifest.json`, listing the files cardtool wrote there.
A run into an existing folder replaces and removes only files some manifest lists; everything else is
left as it is. A folder holding other files and no manifest, a deck folder (or a folder inside one, or
one holding the deck being read), and an output of the wrong kind (a folder where a file is wanted, and
the reverse) are refused with a UsageError before any work. A run is filled into a hidden staging
folder and moved in only when complete, so a failure leaves the previous outputs whole.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path, PurePosixPath

from cardtool.errors import UsageError

MANIFEST = ".cardtool-manifest.json"
HIDDEN = ".cardtool-"  # the manifest and staging folders: never anybody else's
STAGE = ".cardtool-new-"
#: How the start of a file a command writes looks, so that an existing file of another kind is not replaced.
KINDS = {"pdf": ("a PDF", (b"%PDF-",)), "log": ("a cardtool game log", (b'{"event": "start"',))}


def deck_folder_around(path: Path) -> Path | None:
    """The deck folder (one with a deck.yaml) that `path` is or lies inside, if any."""
    for folder in (Path(path).resolve(), *Path(path).resolve().parents):
        if (folder / "deck.yaml").is_file():
            return folder
    return None


def _deck_folders(reads: Iterable[Path]) -> list[Path]:
    folders = []
    for deck in reads:
        deck = Path(deck).resolve()
        folders.append(deck.parent if deck.is_file() else deck)
    return folders


def _check_not_deck(out: Path, reads: Iterable[Path], flag: str) -> None:
    """Refuse a deck folder, a folder inside one, and one around a deck being read or holding any deck."""
    deck = deck_folder_around(out)
    if deck is not None:
        where = "is the deck folder" if deck == out.resolve() else f"lies inside the deck folder {deck}"
        raise UsageError(f"{flag} {out} {where}: cardtool never writes into a deck folder; "
                         "give an output outside it")
    for folder in _deck_folders(reads):
        if folder.is_relative_to(out.resolve()):
            raise UsageError(f"{flag} {out} holds the deck {folder} that this command reads; "
                             "give an output beside it, not around it")
    if out.is_dir():  # decks/ or a project folder: other decks one or two levels down
        held = next((p.parent for pattern in ("*/deck.yaml", "*/*/deck.yaml") for p in out.glob(pattern)), None)
        if held is not None:
            raise UsageError(f"{flag} {out} holds the deck folder {held}; give an output folder that holds "
                             "no decks")


def _manifest(folder: Path) -> dict[str, str] | None:
    """File -> the command that wrote it, as the folder's manifest lists them (checked to stay inside)."""
    path = folder / MANIFEST
    if not path.is_file():
        return None
    try:
        files = json.loads(path.read_text(encoding="utf-8")).get("files", {})
        files = files if isinstance(files, dict) else dict.fromkeys(files, "")
    except (OSError, ValueError, AttributeError, TypeError):
        raise UsageError(f"{path} is damaged; remove it if {folder} holds only cardtool's outputs") from None
    return {name: str(command) for name, command in files.items() if isinstance(name, str) and _safe(name)}


def _manifest_files(folder: Path) -> set[str] | None:
    """The files the folder's manifest lists, or None without one."""
    files = _manifest(folder)
    return None if files is None else set(files)


def _safe(name: str) -> bool:
    """A manifest entry may only name a file below its folder: relative, without '..' or hidden parts."""
    parts = PurePosixPath(name).parts
    return bool(parts) and not PurePosixPath(name).is_absolute() and ".." not in parts and "\\" not in name \
        and not parts[0].startswith(HIDDEN)


def _listed_by_parents(folder: Path) -> set[str] | None:
    """Files below `folder` that the manifests of its enclosing output folders list (build/<deck>/sim)."""
    found, prefix, current = None, PurePosixPath(), folder
    while current.parent != current:
        prefix, current = PurePosixPath(current.name) / prefix, current.parent
        files = _manifest_files(current)
        if files is None:
            return found or None
        inside = {str(PurePosixPath(f).relative_to(prefix)) for f in files if PurePosixPath(f).is_relative_to(prefix)
                  and PurePosixPath(f) != prefix}
        found = (found or set()) | inside
    return found or None


def _nested_manifests(folder: Path) -> dict[str, set[str]]:
    """Subfolder (relative) -> files its own manifest lists (relative to the subfolder)."""
    nested = {}
    for root, dirs, _ in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith(HIDDEN)]  # os.walk does not follow symlinked folders
        if Path(root) != folder:
            files = _manifest_files(Path(root))
            if files is not None:
                nested[Path(root).relative_to(folder).as_posix()] = files
    return nested


def _visible(folder: Path) -> list[Path]:
    return [entry for entry in folder.iterdir() if not entry.name.startswith(HIDDEN)]


def _is_cardtools(folder: Path) -> bool:
    """Whether cardtool may write into the folder: new or empty, or holding cardtool's outputs."""
    if not folder.is_dir() or _manifest_files(folder) is not None or _listed_by_parents(folder) is not None:
        return True
    return all(e.is_dir() and _manifest_files(e) is not None for e in _visible(folder))  # e.g. only sim/


def may_write(folder: Path) -> bool:
    """Whether cardtool may put files of its own into a folder: a new one, an empty one, or one holding
    only cardtool's outputs, and never a deck folder."""
    folder = Path(folder)
    return deck_folder_around(folder) is None and (not folder.exists() or folder.is_dir()) and _is_cardtools(folder)


def check_out_folder(out: Path, reads: Iterable[Path] = (), flag: str = "--out") -> None:
    """Refuse an output folder that is a file, a deck folder, or holds files cardtool did not write."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"{flag} {out} is a file, and this command writes a folder of files; give a folder")
    _check_not_deck(out, reads, flag)
    if not _is_cardtools(out):
        raise UsageError(f"{flag} {out} is a folder of other files that cardtool did not write (it has no "
                         f"{MANIFEST}); nothing there is replaced: give a new or empty folder")


@contextmanager
def staged_dir(final: Path, reads: Iterable[Path] = (), flag: str = "--out",
               command: str = "cardtool", changes: dict | None = None) -> Iterator[Path]:
    """A fresh folder to fill; on success its files replace cardtool's own in `final`, on error `final` is kept.

    Files the same `command` wrote there before and did not write now are removed; files other commands
    wrote there (render cards into a build folder) are kept unless this run writes the same names. A file
    whose new content is what `final` already holds is left as it is (same mtime): `changes`, if given,
    gets "written" and "unchanged", the names of each kind.

    Inside another staging folder (build's images/) it is just that folder: the outer one stages it."""
    final = Path(final)
    if any(part.startswith(STAGE) for part in final.absolute().parts):
        final.mkdir(parents=True, exist_ok=True)
        yield final
        return
    reads = tuple(reads)
    check_out_folder(final, reads, flag)
    created = not final.exists()
    try:
        final.mkdir(parents=True, exist_ok=True)
        stage = Path(tempfile.mkdtemp(dir=final, prefix=STAGE))
    except OSError as exc:
        raise UsageError(f"cannot write to {flag} {final}: {exc.strerror or exc}") from None
    os.chmod(stage, 0o777 & ~_umask())  # mkdtemp makes folders private; outputs are ordinary folders
    try:
        yield stage
        written, unchanged = _commit(stage, final, command)
        if changes is not None:
            changes.update(written=written, unchanged=unchanged)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        if created and final.is_dir() and not _visible(final):
            shutil.rmtree(final, ignore_errors=True)
        raise
    shutil.rmtree(stage, ignore_errors=True)


def _files_below(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file() or p.is_symlink()}


def _same_content(staged: Path, target: Path) -> bool:
    """Whether an output already holds exactly what was staged for it (a regular file, no link)."""
    if target.is_symlink() or not target.is_file() or staged.is_symlink():
        return False
    try:
        if os.path.samefile(staged, target):
            return True
        if staged.stat().st_size != target.stat().st_size:
            return False
        with staged.open("rb") as a, target.open("rb") as b:
            while True:
                chunk = a.read(1 << 20)
                if chunk != b.read(1 << 20):
                    return False
                if not chunk:
                    return True
    except OSError:
        return False


def _commit(stage: Path, final: Path, command: str) -> tuple[list[str], list[str]]:
    """Move the staged files in, replacing and removing only files cardtool's manifests list; a file
    cardtool wrote whose content would not change is kept as it is. Returns (written, unchanged)."""
    new = _files_below(stage) - {MANIFEST}
    own = _manifest(final)
    if own is not None:
        previous = {name for name, by in own.items() if by == command}
        others = {name: by for name, by in own.items() if by != command}
    else:  # a folder an enclosing output lists (build/<deck>/images): this run takes it over
        previous, others = _listed_by_parents(final) or set(), {}
    owned, protected = previous | set(others) | (_listed_by_parents(final) or set()), set()
    for sub, files in _nested_manifests(final).items():
        inside = {f"{sub}/{name}" for name in files} | {f"{sub}/{MANIFEST}"}
        owned |= inside
        if any(name.startswith(sub + "/") for name in new):
            previous |= inside  # this run rewrites that folder: it takes it over
        else:
            protected |= inside  # another command's outputs this run does not touch
    conflicts = sorted(name for name in new if _in_the_way(final, name, owned))
    if conflicts:
        shown = ", ".join(conflicts[:5]) + (" ..." if len(conflicts) > 5 else "")
        raise UsageError(f"{final} holds files that cardtool did not write where it would write its own "
                         f"({shown}); move them away or give another output folder")
    unchanged = {name for name in new if name in owned and _inside(final, final / name)
                 and _same_content(stage / name, final / name)}
    trash = Path(tempfile.mkdtemp(dir=final, prefix=".cardtool-old-"))
    try:
        for name in sorted(((previous - protected) | new) - {MANIFEST} - unchanged):
            target = final / name
            if _inside(final, target) and (target.is_file() or target.is_symlink()):
                (trash / name).parent.mkdir(parents=True, exist_ok=True)
                os.rename(target, trash / name)
        for name in sorted(new - unchanged):
            (final / name).parent.mkdir(parents=True, exist_ok=True)
            os.rename(stage / name, final / name)
        _remove_empty_folders(final, {str(PurePosixPath(n).parent) for n in previous})
        kept = {name: by for name, by in others.items() if name not in new and os.path.lexists(final / name)}
        _write_manifest(final, kept | dict.fromkeys(new, command))
    finally:
        shutil.rmtree(trash, ignore_errors=True)
    return sorted(new - unchanged), sorted(unchanged)


def _in_the_way(final: Path, name: str, owned: set[str]) -> bool:
    """A file this run writes would replace, or a folder be made over, something cardtool did not write."""
    target = final / name
    for parent in reversed(PurePosixPath(name).parents[:-1]):  # a file where a folder must go
        path = final / parent
        if path.is_symlink() or (path.exists() and not path.is_dir()):
            return True  # a symlinked folder could lead the write out of `final`
    return (target.is_symlink() or target.exists()) and (target.is_dir() or name not in owned)


def _inside(final: Path, target: Path) -> bool:
    return target.parent.resolve().is_relative_to(final.resolve())


def _remove_empty_folders(final: Path, folders: set[str]) -> None:
    for folder in sorted(folders, key=lambda f: -len(PurePosixPath(f).parts)):
        path = final / folder
        while path != final and path.is_dir() and not path.is_symlink() and not any(path.iterdir()):
            path.rmdir()
            path = path.parent


def _write_manifest(folder: Path, files: dict[str, str]) -> None:
    """Write the folder's manifest, unless it already says exactly this."""
    from cardtool import __version__
    from cardtool.render.environment import write_atomic

    text = json.dumps({"written_by": f"cardtool {__version__}", "files": files}, indent=1, sort_keys=True) + "\n"
    path = folder / MANIFEST
    try:
        if path.is_file() and not path.is_symlink() and path.read_text(encoding="utf-8") == text:
            return
    except (OSError, UnicodeDecodeError):
        pass
    write_atomic(path, text)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def check_out_file(path: Path, kind: str, flag: str = "--out", example: str | None = None) -> None:
    """Refuse an output file that is a folder, lies in a deck folder, or would replace a file of another kind."""
    path = Path(path)
    what, starts = KINDS[kind]
    deck = deck_folder_around(path if path.is_dir() else path.parent)
    if deck is not None:  # said first, so the advice below never points into a deck folder
        raise UsageError(f"{flag} {path} lies inside the deck folder {deck}: cardtool never writes into a deck "
                         "folder; give an output outside it")
    if path.is_dir():
        raise UsageError(f"{flag} {path} is a folder, and this command writes one file ({what}); "
                         f"give a file name, such as {path / (example or _example(kind))}")
    if path.parent.exists() and not path.parent.is_dir():
        raise UsageError(f"{flag} {path}: {path.parent} is a file, not a folder")
    if path.is_file() and path.name not in (_manifest_files(path.parent) or set()):
        try:
            with path.open("rb") as existing:
                head = existing.read(64)
        except OSError as exc:
            raise UsageError(f"cannot write {flag} {path}: {exc.strerror or exc}") from None
        if head and not head.lstrip().startswith(starts):
            raise UsageError(f"{flag} {path} exists and is not {what}, so cardtool will not replace it; "
                             "give another file name")


def _example(kind: str) -> str:
    return {"pdf": "cards.pdf", "log": "game.jsonl"}[kind]


def write_file(path: Path, data: str | bytes, kind: str, flag: str = "--out", example: str | None = None,
               command: str = "cardtool") -> None:
    """Check and write one output file atomically; a folder cardtool made (or that is empty) records it."""
    from cardtool.render.environment import write_atomic

    path = Path(path)
    check_out_file(path, kind, flag, example)
    try:
        record = _is_cardtools(path.parent)
        write_atomic(path, data)
        if record:
            _write_manifest(path.parent, (_manifest(path.parent) or {}) | {path.name: command})
    except OSError as exc:
        raise UsageError(f"cannot write {flag} {path}: {exc.strerror or exc}") from None
