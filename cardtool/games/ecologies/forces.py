"""What is in force on an Ecologies table and what it scores: the effects of healthy ecologies' bonuses,
of factor cards on webs and in front of players, who they work for, each seat's VP, and the role weights
arrangements maximise. A mixin of EcologiesState (state.py), kept apart so that each file stays small.

Everything here is derived from the table and cached until it changes: `changed()` forgets all of it,
`rescored()` only what reads the ecologies' cards and roles (after a change that leaves every ecology's
health and factor cards as they were, what is in force is the same).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import NamedTuple

from cardtool.games.ecologies.arrange import NO_WEIGHTS, ROLE_NUMBER
from cardtool.games.ecologies.model import Effect
from cardtool.games.ecologies.table import matches


class Active(NamedTuple):
    """An effect in force or usable now: whose it is, which card grants it, and which of its effects."""

    controller: int
    source: int
    index: int
    effect: Effect


class InForce:
    """The effects in force and the score of a state (needs its game, ecos, table_factors, _active,
    _forces and _derived)."""

    __slots__ = ()

    def active(self) -> list[Active]:
        """Every effect in force now: bonuses of healthy ecologies, table cards, cards placed on webs.

        In the single-player game, effects marked multiplayer-only are never in force.
        """
        if self._active is None:
            table = self.game.table
            single = self.game.mode == "single"
            found = []
            for eco in self.ecos.values():
                if eco.healthy:
                    for index, effect in enumerate(table.effects[eco.biome]):
                        if not (single and effect.multiplayer_only):
                            found.append(Active(eco.owner, eco.biome, index, effect))
            for eco in self.ecos.values():
                for card, placer in eco.factors:
                    for index, effect in enumerate(table.effects[card]):
                        if not (single and effect.multiplayer_only):
                            found.append(Active(placer, card, index, effect))
            for card, owner in self.table_factors:
                for index, effect in enumerate(table.effects[card]):
                    if not (single and effect.multiplayer_only):
                        found.append(Active(owner, card, index, effect))
            self._active = found
        return self._active

    def changed(self) -> None:
        """Forget what was derived from the table (call after any change to ecologies or table cards)."""
        self._active = None
        self._forces = {}
        self._derived = {}

    def rescored(self) -> None:
        """Forget what was derived from the ecologies' cards and roles, keeping what is in force (call
        after a change to an ecology that leaves its health and its factor cards as they were)."""
        self._derived = {}

    def beneficiaries(self, active: Active) -> tuple[int, ...]:
        """Who an ongoing effect works for: its controller, everyone, or the controller's opponents."""
        target = active.effect.target
        if target in ("you", "placer"):
            return (active.controller,)
        players = range(self.game.players)
        if target == "each_player":
            return tuple(players)
        return tuple(s for s in players if s != active.controller)

    def ongoing(self, seat: int, word: str) -> Sequence[Active]:
        """Ongoing effects with this action word that work for a seat (in the order of active())."""
        by_word = self._forces.get("ongoing")
        if by_word is None:  # every (word, seat) at once: the rules ask for many between two changes
            by_word = self._forces["ongoing"] = {}
            for active in self.active():
                if active.effect.trigger == "ongoing":
                    for beneficiary in self.beneficiaries(active):
                        by_word.setdefault((active.effect.action, beneficiary), []).append(active)
        return by_word.get((word, seat), ())

    def protected(self, seat: int, card: int | None, by: int) -> bool:
        """Whether seat `by` may not target this seat (card None) or this card of theirs (rulebook FAQ).

        A `protect` without a filter shields the player and all their cards; with a filter, only the
        table cards it matches.
        """
        if by == seat:
            return False
        for active in self.ongoing(seat, "protect"):
            flt = active.effect.filter
            if flt is None:
                return True
            if card is not None and self.matches_on_table(flt, card, active.controller):
                return True
        return False

    def matches_on_table(self, flt, card: int, controller: int) -> bool:
        """Whether a card on the table matches a filter, seen from an effect's controller."""
        table = self.game.table
        if table.kind[card] == "organism":
            eco = self.eco_of(card)
            owner, acting, code = eco.owner, eco.role_of(card), eco.code
        elif card in self.ecos:
            eco = self.ecos[card]
            owner, acting, code = eco.owner, None, eco.code
        else:
            owner = self.factor_owner(card)
            acting, code = None, None
        relation = "you" if owner == controller else "opponent"
        return matches(table, flt, card, owner_relation=relation, acting=acting, code=code)

    def factor_owner(self, card: int) -> int:
        for factor, owner in self.table_factors:
            if factor == card:
                return owner
        for eco in self.ecos.values():
            for factor, _ in eco.factors:
                if factor == card:
                    return eco.owner
        return -1

    # -- score

    def vp(self, seat: int) -> Fraction:
        """A seat's VP: its organisms (1 each in the simplified game) plus VP effects in force."""
        key = ("vp", seat)
        total = self._derived.get(key)
        if total is None:
            total = self._derived[key] = Fraction(self.vp_units(seat), self.vp_denominator())
        return total

    def vp_denominator(self) -> int:
        """What vp_units count in: 1/denominator of a VP (1 in the simplified game: whole cards)."""
        return 1 if self.game.mode == "simplified" else self.game.table.vp_denominator

    def vp_units(self, seat: int) -> int:
        """A seat's VP as a whole number of 1/vp_denominator(): exact, and cheap to compare."""
        found = self._derived.get(seat)
        if found is None:
            self._count_vp_units()
            found = self._derived[seat]
        return found

    def _count_vp_units(self) -> None:
        """Every seat's vp_units at once (the game's end is checked for all after any change)."""
        table = self.game.table
        simplified = self.game.mode == "simplified"
        bonus = [0] * self.game.players  # whole VP from the effects in force (amounts are whole numbers)
        for active in self.active():
            effect = active.effect
            if effect.trigger != "ongoing":
                continue
            if effect.action == "gain_vp":
                amount = effect.amount
            elif effect.action == "vp_per":
                amount = effect.amount * self.count_placed(effect.filter, active.controller)
            else:
                continue
            for seat in self.beneficiaries(active):
                bonus[seat] += amount
        units = table.vp_units
        totals = bonus if simplified else [b * table.vp_denominator for b in bonus]
        for eco in self.ecos.values():
            if simplified:
                totals[eco.owner] += len(eco.cards)
            else:
                for card in eco.cards:
                    totals[eco.owner] += units[card]
        for seat, total in enumerate(totals):
            self._derived[seat] = total

    def count_placed(self, flt, controller: int) -> int:
        """How many cards on the table match a filter, seen from an effect's controller: a card of an
        ecology by its owner, the role it acts in and the ecology's biome; a factor card by its owner.
        Cards the filter's kind or acting role rules out are not asked about."""
        key = ("count", flt, controller)
        found = self._derived.get(key)
        if found is not None:
            return found
        table = self.game.table
        kinds = flt.kind if flt is not None else ()
        acting = flt.acting if flt is not None else ()
        organisms = not kinds or "organism" in kinds
        biomes = (not kinds or "biome" in kinds) and not acting  # on the table, only organisms act
        factors = (not kinds or "factor" in kinds) and not acting
        count = 0
        for eco in self.ecos.values():
            relation, code = "you" if eco.owner == controller else "opponent", eco.code
            if biomes:
                count += matches(table, flt, eco.biome, owner_relation=relation, acting=None, code=code)
            if organisms:
                for card, role in zip(eco.cards, eco.roles):
                    if not acting or role in acting:
                        count += matches(table, flt, card, owner_relation=relation, acting=role, code=code)
            if factors:
                for card, _ in eco.factors:
                    count += matches(table, flt, card, owner_relation=relation, acting=None, code=None)
        if factors:
            for card, owner in self.table_factors:
                count += matches(table, flt, card, owner_relation="you" if owner == controller else "opponent",
                                 acting=None, code=None)
        self._derived[key] = count
        return count

    def role_weights(self, seat: int, code: str) -> tuple[int, ...]:
        """VP a seat earns per card acting in each role in an ecology of this biome (vp_per effects with
        an `acting` filter): what its arrangements maximise after keeping cards and health."""
        key = ("weights", seat, code)
        found = self._forces.get(key)
        if found is None:
            found = self._forces[key] = self._role_weights(seat, code)
        return found

    def _role_weights(self, seat: int, code: str) -> tuple[int, ...]:
        found = self.ongoing(seat, "vp_per")
        if not found:
            return NO_WEIGHTS
        weights = list(NO_WEIGHTS)
        for active in found:
            flt = active.effect.filter
            if flt is None or not flt.acting or (flt.kind and "organism" not in flt.kind):
                continue
            if flt.biomes and code not in flt.biomes:
                continue
            if flt.owner == "opponent" and active.controller == seat:
                continue
            for role in flt.acting:
                weights[ROLE_NUMBER[role]] += active.effect.amount
        return tuple(weights)
