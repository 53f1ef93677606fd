"""What a web's arrangement exposes to the destroy cards still to come: Exposure, a mixin of Valuer
(valuer.py), which rates a seat's Arrange choices with it. Kept apart so that each file stays small; it
reads the Valuer's observation, card table and eco_value, and imports nothing of valuer.py.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardtool.games.ecologies.arrange import arrange
from cardtool.games.ecologies.model import Effect
from cardtool.games.ecologies.table import matches


class Exposure:
    """Threats to a seat's webs and what an arrangement stands to lose to them (needs obs, table, seat,
    mine, _threats, eco_value and organism_vp of Valuer)."""

    def threats(self) -> list[Effect]:
        """The destroy effects of factor cards that may still be played against this seat: those it has
        not seen (deck, other hands) and those known to be in other hands."""
        if self._threats is None:
            # Unseen or in another hand is everywhere but this hand, the discard pile, limbo and the
            # table; only factor cards matter.
            obs, table = self.obs, self.table
            out = set(obs.hand) | set(obs.discard) | set(obs.limbo)
            out.update(card for card, _ in obs.table_factors)
            for eco in obs.ecologies:
                out.update(card for card, _ in eco.factors)
            self._threats = [e for c in table.factor_cards if c not in out for e in table.effects[c]
                             if e.action == "destroy" and e.target in ("opponent", "random_opponent", "each_opponent")]
        return self._threats

    def exposure(self, eco, roles: Sequence[str]) -> float:
        """What this seat stands to lose, in VP-equivalents, to the targeted destroy cards still to come
        if its web is arranged with these roles: for each such card, the worst single loss it could cause
        (a card matching its filter by the role it would act in, with what starves after it)."""
        threats = self.threats()
        if not threats:
            return 0.0
        table = self.table
        shields = self._my_protections()
        if any(flt is None for flt in shields):
            return 0.0
        total = 0.0
        for effect in threats:
            worst = 0.0
            for card, role in zip(eco.cards, roles):
                if not matches(table, effect.filter, card, owner_relation="opponent", acting=role, code=eco.code):
                    continue
                if any(matches(table, flt, card, owner_relation="you", acting=role, code=eco.code) for flt in shields):
                    continue
                worst = max(worst, self._loss(eco, card))
            total += worst
        return total

    def _my_protections(self) -> list:
        """Filters of the protect effects in force for this seat (None: the whole player is shielded)."""
        table, found = self.table, []
        sources = [c for c, owner in self.obs.table_factors if owner == self.seat]
        sources += [eco.biome for eco in self.mine if eco.healthy]
        for source in sources:
            found += [e.filter for e in table.effects[source] if e.action == "protect" and e.trigger == "ongoing"]
        return found

    def _loss(self, eco, card: int) -> float:
        rest = tuple(c for c in eco.cards if c != card)
        after = arrange(self.table, eco.code, rest)
        lost = sum(self.organism_vp(c) for c in (card,) + after.dropped)
        return lost + self.eco_value(eco.code, eco.biome, eco.cards) - self.eco_value(eco.code, eco.biome, after.kept)
