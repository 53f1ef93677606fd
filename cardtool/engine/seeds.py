"""Seeds derived from a master seed, so game i is the same game however games are scheduled."""

from __future__ import annotations

import hashlib


def derive_seed(master: int, index: int, *labels: str) -> int:
    """A 63-bit seed for game `index` (and optional labels such as a bot's name) under `master`."""
    text = ":".join([str(master), str(index), *labels]).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1
