"""Auto-balance: `cardtool balance` searches card values by simulation until a deck meets its targets.

tuning (TUNING.yaml read and checked), params (the parameters a tuning selects, and the deck a choice
of values makes: an expansion-style overrides deck), targets (the findings measured on an analysis),
play (one candidate's games, look by look), search (Optuna over candidates, resumable), check (before
and after on fresh seeds under several line-ups), report (balance.json, report.md, the terminal).
Who may import it: cardtool.commands.balance and tests. It imports the deck, sim and issues layers,
never a game.
"""
