"""The game protocol shared by every game, the playout loop, bots and seeds.

Who may import it: games (which implement the protocol), sim and commands. It imports no game module
and nothing above it.
"""
