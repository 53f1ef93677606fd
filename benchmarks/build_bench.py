"""Benchmark: issue 15 item 3 from the command line, each figure beside its target.

- `cardtool render cards` of the 108-card Ecologies base deck: under 3 s wall, cold (--no-cache, every
  face laid out) and warm (the faces kept in the output folder's cache: nothing changed, one card changed);
- `cardtool build` run again with nothing changed: under 1.5 s and no file rewritten (mtimes compared);
- after one card changes: how many faces and images are made again (1 each is the target), its time.

Every command runs as its own process, as a designer runs it, on a copy of the deck in a temporary
folder; wall and CPU seconds (user + system of the process and its workers) are both printed with the
machine's load, since on a shared machine the CPU figure is the steadier one.

    .venv/bin/python benchmarks/build_bench.py                 # the Ecologies base deck, 200 sim games
    .venv/bin/python benchmarks/build_bench.py --sim-games 0   # without the short simulation
    .venv/bin/python benchmarks/build_bench.py --cards-only    # render cards alone: cold, warm, one change
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CARDTOOL = [sys.executable, "-m", "cardtool"]
CARDS_TARGET, REBUILD_TARGET = 3.0, 1.5


def timed(*args: str) -> tuple[float, float, str]:
    """(wall s, cpu s, stdout) of one cardtool command in its own process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([*CARDTOOL, *args], capture_output=True, text=True, cwd=ROOT)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"cardtool {' '.join(args)} failed:\n{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def stamps(out: Path) -> dict[str, int]:
    return {p.relative_to(out).as_posix(): p.stat().st_mtime_ns for p in out.rglob("*")
            if p.is_file() and ".cardtool-cache" not in p.parts}


def load() -> str:
    return f"load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"


def verdict(value: float, target: float) -> str:
    return f"target < {target:g} s: {'met' if value < target else 'NOT met'}"


def change_one_card(deck: Path) -> None:
    """Add a word to the first flavour text of the deck's card files."""
    yaml = next(p for p in sorted(deck.rglob("*.yaml")) if "flavor:" in p.read_text())
    yaml.write_text(re.sub(r"flavor: (.+)", r"flavor: \1 Changed.", yaml.read_text(), count=1))


def render_cards(folder: Path, args) -> None:
    """`render cards` cold (--no-cache: every face laid out), warm with nothing changed, and warm after
    one card changed (what a designer's re-run after an edit is), into build-like folders of their own."""
    deck = folder / "cards-deck"
    shutil.copytree(args.deck, deck)
    cold = [timed("render", "cards", str(deck), "--no-cache", "--out", str(folder / "cold" / "cards.pdf"))
            for _ in range(args.runs)]
    wall, cpu, _ = min(cold)
    size = (folder / "cold" / "cards.pdf").stat().st_size
    print(f"render cards, cold (every face laid out): best {wall:.2f} s wall, {cpu:.2f} s cpu of {args.runs} "
          f"({verdict(wall, CARDS_TARGET)}; {size / 1e6:.2f} MB; {load()})", flush=True)
    out = str(folder / "warm" / "cards.pdf")
    timed("render", "cards", str(deck), "--out", out)  # fills the folder's cache
    warm = [timed("render", "cards", str(deck), "--out", out) for _ in range(args.runs)]
    wall, cpu, _ = min(warm)
    print(f"render cards, warm, nothing changed: best {wall:.2f} s wall, {cpu:.2f} s cpu of {args.runs} "
          f"({verdict(wall, CARDS_TARGET)}; {load()})", flush=True)
    change_one_card(deck)
    wall, cpu, text = timed("render", "cards", str(deck), "--out", out)
    faces = re.search(r"\((\d+) faces reused, (\d+) rendered", text)
    print(f"render cards, warm, one card changed: {wall:.2f} s wall, {cpu:.2f} s cpu, {faces[2]} faces laid out, "
          f"{faces[1]} reused ({verdict(wall, CARDS_TARGET)}; {load()})", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deck", default=str(ROOT / "decks" / "ecologies-bizarre-biomes"))
    parser.add_argument("--sim-games", default="200")
    parser.add_argument("--runs", type=int, default=3, help="runs of render cards and of the unchanged rebuild")
    parser.add_argument("--cards-only", action="store_true", help="only the render cards figures")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        deck, out = Path(folder) / "deck", Path(folder) / "out"
        shutil.copytree(args.deck, deck)
        render_cards(Path(folder), args)
        if args.cards_only:
            return 0
        wall, cpu, _ = timed("build", str(deck), "--out", str(out), "--sim-games", args.sim_games)
        print(f"first build: {wall:.2f} s wall, {cpu:.2f} s cpu (no target; {load()})", flush=True)
        rebuilds = []
        for _ in range(args.runs):
            before = stamps(out)
            wall, cpu, text = timed("build", str(deck), "--out", str(out), "--sim-games", args.sim_games)
            after = stamps(out)
            rewritten = sum(1 for name in after if before.get(name) != after[name])
            rebuilds.append((wall, cpu, rewritten))
        wall, cpu, rewritten = min(rebuilds)
        print(f"build again, nothing changed: best {wall:.2f} s wall, {cpu:.2f} s cpu, {rewritten} of "
              f"{len(after)} files rewritten ({verdict(wall, REBUILD_TARGET)}, 0 files: "
              f"{'met' if max(r[2] for r in rebuilds) == 0 else 'NOT met'}; {load()})", flush=True)
        change_one_card(deck)
        before = stamps(out)
        wall, cpu, text = timed("build", str(deck), "--out", str(out), "--sim-games", args.sim_games)
        after = stamps(out)
        faces = re.search(r"cards: .*\((\d+) faces reused, (\d+) rendered", text)
        images = re.search(r"images: .*\((\d+) images reused, (\d+) rasterised", text)
        rulebook = "reused" if "rulebook reused" in text else "rendered"
        changed = sorted(name for name in after if before.get(name) != after[name])
        print(f"one card changed: {wall:.2f} s wall, {cpu:.2f} s cpu; faces {faces[2]} rendered, {faces[1]} reused; "
              f"images {images[2]} rasterised, {images[1]} reused (target 1 each: "
              f"{'met' if faces[2] == images[2] == '1' else 'NOT met'}); rulebook {rulebook}; "
              f"{len(changed)} files rewritten: {', '.join(changed)} ({load()})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
