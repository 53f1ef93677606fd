"""The game protocol shared by every game, the playout loop, bots and seeds."""
