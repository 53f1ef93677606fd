"""The errors cardtool raises, named by what the user did; the CLI maps them to exit codes."""

from __future__ import annotations


class CardtoolError(Exception):
    """Base of every error caused by the user's input rather than by a bug."""

    exit_code = 1


class UsageError(CardtoolError):
    """The command line asked for something that cannot be done as asked."""

    exit_code = 2


class DeckError(CardtoolError):
    """A deck cannot be loaded; carries the validation report that says why."""

    def __init__(self, message: str, report=None):
        super().__init__(message)
        self.report = report


class UnknownCardError(CardtoolError):
    """A card id was asked for that the deck does not have."""


class IllegalActionError(CardtoolError):
    """A game action was applied that is not legal in the current state."""


class RenderError(CardtoolError):
    """A deck cannot be printed as asked: text that does not fit, missing art, a bad rulebook section."""
