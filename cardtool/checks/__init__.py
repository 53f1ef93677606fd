"""Deck-level checks that a schema cannot express (food webs)."""
