"""Game-neutral deck handling: YAML with positions, schemas, manifests, loading, expansions, diff, scaffolds.

Who may import it: every layer above (commands, render, sim, games). It reaches a deck's game only through
the registry (cardtool.games) and imports no game module.
"""
