"""Optional compiled kernels for cardtool's engines: one C extension module a game (`_symbiosis`,
`_ecologies`).

Nothing here is a rule of any game: each kernel computes exactly what a pure-Python function of the
game's package computes (the readable reference), and the game imports it only when it is installed and
CARDTOOL_PURE is not set. Tests play thousands of seeded games both ways and compare them whole.
"""
