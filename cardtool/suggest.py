"""'Did you mean ...' suggestions for misspelt keys, values and card ids."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def closest(word: object, choices: Iterable[object]) -> str | None:
    """The choice most like word, if any is close enough to be a plausible typo."""
    options = [str(c) for c in choices]
    text = str(word)
    folded = {o.lower(): o for o in options}
    if text.lower() in folded:
        return folded[text.lower()]
    match = difflib.get_close_matches(text.lower(), list(folded), n=1, cutoff=0.6)
    return folded[match[0]] if match else None


def did_you_mean(word: object, choices: Iterable[object]) -> str | None:
    """A hint sentence, or None when nothing is close."""
    match = closest(word, choices)
    return f"did you mean '{match}'?" if match is not None else None
