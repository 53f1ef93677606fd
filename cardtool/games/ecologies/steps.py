"""The engine's steps the compiled kernel `cardtool_accel._ecoengine` takes when it serves (accel.py): a seat's
observation (view.observe) and the legal actions (rules.legal_actions), which stay the readable reference.

The kernel reads the same Python state and builds the same objects (rules.moves too, with arrange.fits_with's
fast test); what reads more of the rules it asks of the reference functions bound here (rules.is_free,
factor_plays, bonuses, arrange.fits), and a choice it does not list (any pending choice but an offer's answers)
rules.py lists. engine.EcologiesGame binds these two functions for its states; tests/test_ecologies_accel_greedy.py
compares both ways at every step.
"""

from __future__ import annotations

from cardtool.games.ecologies import accel, rules, view
from cardtool.games.ecologies.actions import DECLINE, END_PHASE, Accept, BuyWith, DestroyEcology, Move
from cardtool.games.ecologies.arrange import ROLE_NAMES, fits
from cardtool.games.ecologies.state import EcologiesState

_KERNEL = accel.ENGINE
if _KERNEL is not None:
    _KERNEL.bind(rules.Legal, END_PHASE, DECLINE, Accept, BuyWith, DestroyEcology, view.Observation, rules.is_free,
                 rules.factor_plays, Move, rules.bonuses, rules.play_action, rules._offers_by_card, fits,
                 rules.per_card, EcologiesState, ROLE_NAMES)


def legal_actions(state) -> list:
    """rules.legal_actions(state), by the kernel where it serves."""
    if accel.engine_serving():
        found = _KERNEL.legal(state)
        if found is not None:
            return found
    return rules.legal_actions(state)


def observe(state, seat: int) -> view.Observation:
    """view.observe(state, seat), by the kernel where it serves."""
    if accel.engine_serving():
        return _KERNEL.observe(state, seat)
    return view.observe(state, seat)
