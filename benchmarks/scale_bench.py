"""Benchmark: does validating an Ecologies deck grow linearly with its size (issue 15, target 2)?

Run with `.venv/bin/python benchmarks/scale_bench.py [--runs N] [--sizes 1000,1892,10000]`. It copies the
base deck into a temporary folder and adds N synthetic organisms in files of 100 cards: layered food
webs (producers, C1, C2, C3 and scavenger/decomposers) in each of the seven biomes, every `eats` link
listed again in the prey's `eaten_by`, so the deck is valid and every check runs to the end. Each size is
validated like `cardtool validate` does (cardtool.deck.loader.load with deep=True) in a fresh Python
process, so the peak memory is that process's own maximum resident set (getrusage), imports included,
and one size's garbage never helps or hurts the next. The time is of validation alone: the process
validates the base deck first, so the imports (about half a second) do not flatter the small deck.

A deck holds at most 2,000 cards (compose.MAX_DECK_CARDS, docs/deck-format.md "Limits"), so the
1,892-organism deck is the largest a user can validate and a 10,000-organism deck is refused by design.
To measure whether the validation stages themselves scale, the child process measuring 10,000 raises
that one constant for itself (see `_measure`); nothing the command line or a deck can set lifts it.

Targets: 10,000 organisms under 10 s and under 1 GB peak memory; time(10,000) / time(1,000) at most 12.
The ratio is taken from CPU time, round by round (each round validates every size once, back to back,
so both sides of a ratio share the machine's load), and the median over the rounds is printed beside
its target: wall time on a shared machine measures the other processes too.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
BASE = ROOT / "decks" / "ecologies-bizarre-biomes"
#: The base deck's biome codes, in its order.
BIOMES = tuple(card["code"] for card in yaml.safe_load((BASE / "biomes.yaml").read_text(encoding="utf-8"))["cards"])
PER_FILE = 100
#: Cards of one layer in one biome block, and how many prey of the layer below each consumer eats.
BLOCK, PREY = 10, 3
LAYERS = (("P", ("P",), "1/2"), ("C1", ("C1",), 1), ("C2", ("C2",), 2), ("C3", ("C3",), 3), ("SD", ("SD",), 1))


def organisms(count: int, seed: int = 15) -> list[dict]:
    """`count` organisms in layered webs: blocks of BLOCK cards per layer, biome after biome. The j-th
    consumer of a block eats the j-th card of the layer below in its block (so every card with a layer
    above it is eaten) and PREY - 1 more of that layer in its biome, from its block or the few before."""
    rng = random.Random(seed)
    cards: list[dict] = []
    layer_pool: dict[tuple[str, str], list[dict]] = {}  # (biome, layer) -> its cards so far
    for index in range(count):
        biome = BIOMES[(index // (BLOCK * len(LAYERS))) % len(BIOMES)]
        layer, roles, vp = LAYERS[(index // BLOCK) % len(LAYERS)]
        card = {"id": f"synthetic-{layer.lower()}-{index:05d}", "kind": "organism",
                "name": f"Synthetic {layer} {index}", "scientific_name": f"Fictus {layer.lower()}{index}",
                "biomes": [biome], "roles": list(roles), "vp": vp, "eats": [], "eaten_by": [],
                "flavor": f"A made-up {layer} of {biome}, written so that deck size can be measured."}
        below = {"C1": "P", "C2": "C1", "C3": "C2"}.get(layer)
        if below:
            pool = layer_pool[(biome, below)]
            own = pool[-BLOCK + index % BLOCK]  # the j-th card of the layer below in this block
            others = [c for c in pool[-4 * BLOCK:] if c is not own]
            for prey in [own] + rng.sample(others, min(PREY - 1, len(others))):
                card["eats"].append(prey["id"])
                prey["eaten_by"].append(card["id"])
        layer_pool.setdefault((biome, layer), []).append(card)
        cards.append(card)
    return cards


def make_deck(folder: Path, count: int) -> Path:
    """The base deck with `count` synthetic organisms added, written under folder."""
    deck = folder / f"scale-{count}"
    shutil.copytree(BASE, deck)
    manifest = (deck / "deck.yaml").read_text(encoding="utf-8")
    (deck / "deck.yaml").write_text(manifest.replace("  - factors.yaml\n", "  - factors.yaml\n  - synthetic/*.yaml\n"),
                                    encoding="utf-8")
    (deck / "synthetic").mkdir()
    cards = organisms(count)
    for start in range(0, len(cards), PER_FILE):
        text = yaml.safe_dump({"cards": cards[start:start + PER_FILE]}, sort_keys=False, allow_unicode=True)
        (deck / "synthetic" / f"part-{start // PER_FILE:04d}.yaml").write_text(text, encoding="utf-8")
    return deck


def _measure(deck: Path, lift: bool) -> None:
    """In the child process: validate the deck once and print the figures as JSON."""
    sys.path.insert(0, str(ROOT))
    from cardtool.deck import compose
    from cardtool.deck.loader import load

    if lift:
        # Stress test only: this process alone may hold more cards than a user's deck may, so that the
        # validation stages can be timed on 10,000 organisms. The bound for users stays as it is.
        compose.MAX_DECK_CARDS = 100_000
    load(BASE, deep=True)  # imports every module validation needs, so the timing below is validation alone
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started, cpu = time.perf_counter(), time.process_time()
    result = load(deck, deep=True)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    report = result.report
    print(json.dumps({"seconds": seconds, "cpu": cpu, "peak_kib": peak, "start_kib": before,
                      "errors": [issue.format() for issue in report.errors[:5]],
                      "warnings": len(report.warnings),
                      "cards": len(result.deck.cards) if result.deck else 0}))


def measure(deck: Path, lift: bool) -> dict:
    out = subprocess.run([sys.executable, __file__, "--child", str(deck)] + (["--lift"] if lift else []),
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,1892,10000", help="numbers of synthetic organisms to add")
    parser.add_argument("--runs", type=int, default=5, help="rounds, each validating every size once (medians are reported)")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--lift", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _measure(args.child, args.lift)
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    from cardtool.deck.compose import MAX_DECK_CARDS
    from cardtool.deck.loader import load_deck

    base_size = load_deck(BASE).size
    figures: dict[int, dict] = {}
    with tempfile.TemporaryDirectory() as folder:
        decks = {count: make_deck(Path(folder), count) for count in sizes}
        lifts = {count: base_size + count > MAX_DECK_CARDS for count in sizes}
        rounds = []  # each round measures every size once, back to back, so a ratio's two sides share the load
        for _ in range(args.runs):
            rounds.append({count: measure(decks[count], lifts[count]) for count in sizes})
        for count in sizes:
            runs = [r[count] for r in rounds]
            if runs[0]["errors"]:
                raise SystemExit(f"the {count:,}-organism deck has errors: {runs[0]['errors']}")
            seconds = statistics.median(r["seconds"] for r in runs)
            cpu = statistics.median(r["cpu"] for r in runs)
            peak = max(r["peak_kib"] for r in runs) / 1024
            figures[count] = {"seconds": seconds, "cpu": cpu, "peak": peak}
            print(f"{count:>6,} organisms ({runs[0]['cards']:,} cards{', deck-size bound lifted' if lifts[count] else ''}): "
                  f"validate {seconds:.2f} s (median of {len(runs)}: "
                  f"{', '.join(format(r['seconds'], '.2f') for r in runs)}; CPU {cpu:.2f} s), peak memory {peak:,.0f} MB "
                  f"({runs[0]['start_kib'] / 1024:,.0f} MB of it before: Python, the imports, the base deck), {runs[0]['warnings']} warning(s)")
    if 10_000 in figures:
        big = figures[10_000]
        print(f"10,000 organisms: {big['seconds']:.2f} s wall (target < 10 s: {_met(big['seconds'] < 10)}), "
              f"{big['cpu']:.2f} s CPU ({_met(big['cpu'] < 10)} by CPU time, what a quiet core takes), "
              f"peak {big['peak']:,.0f} MB (target < 1 GB: {_met(big['peak'] < 1024)})")
        if 1_000 in figures:
            # The ratio from CPU time, round by round (wall time on a shared machine measures its load too).
            ratios = [r[10_000]["cpu"] / r[1_000]["cpu"] for r in rounds]
            ratio = statistics.median(ratios)
            print(f"time 10,000 / 1,000 organisms: median {ratio:.1f} of CPU time over {len(ratios)} rounds "
                  f"(target <= 12: {_met(ratio <= 12)}; rounds {', '.join(format(x, '.1f') for x in ratios)}; "
                  f"of the wall-time medians {big['seconds'] / figures[1_000]['seconds']:.1f}; "
                  f"the decks hold {10_000 + base_size:,} and {1_000 + base_size:,} cards, "
                  f"{(10_000 + base_size) / (1_000 + base_size):.1f} times as many)")
        print("10,000 organisms is more than a deck may hold (2,000 cards): measured with the bound lifted in the "
              "measuring process only, to show how the validation stages scale")


def _met(ok: bool) -> str:
    return "met" if ok else "NOT met"


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
