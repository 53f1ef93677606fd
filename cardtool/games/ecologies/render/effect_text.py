"""Effects in plain English, for cards and rulebooks whose YAML gives no `text` (docs/effects.md).

Each word of the vocabulary is said once here; a sentence is built from the trigger (when), the action
(what), the target (who), the amount, the frequency and the filter (which cards).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cardtool.games.ecologies.model import Effect, Filter

ROLE_NAMES = {"P": "producer", "C1": "primary consumer", "C2": "secondary consumer",
              "C3": "tertiary consumer", "C4": "quaternary consumer", "SD": "scavenger/decomposer"}


def join(words: Sequence[str], last: str = "or") -> str:
    """'a', 'a or b', 'a, b or c'."""
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + f" {last} " + words[-1]


def _cards(n: int, noun: str = "card") -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _frequency(effect: Effect) -> str:
    if effect.every == 1:
        return "Once per turn, "
    if effect.every == 2:
        return "Every other turn, "
    return f"Once every {effect.every} turns, "


class EffectText:
    """Says effects in English; biome codes are named with the deck's biome names."""

    def __init__(self, biome_names: Mapping[str, str] | None = None):
        self.biome_names = dict(biome_names or {})

    # -- filters ---------------------------------------------------------------------------------
    def noun(self, flt: Filter | None, *, plural: bool = False, owner_default: str = "") -> str:
        """The cards a filter matches: 'organism acting as C2, C3 or C4 in an opponent's food web'."""
        kinds = flt.kind if flt else ()
        kind = join([k for k in kinds], "or") if kinds else "card"
        if flt and (flt.acting or flt.roles) and not kinds:
            kind = "organism"
        noun = kind + ("s" if plural else "")
        parts = [noun]
        if flt and flt.roles:
            names = [f"{ROLE_NAMES[r]}{'s' if plural else ''} ({r})" for r in flt.roles]
            parts.append(f"that can be {join(names)}")
        if flt and flt.biomes:
            places = [self.biome_names.get(code, code) for code in flt.biomes]
            parts.append(f"that can live in {join(places)}")
        owner = flt.owner if flt else "any"
        if owner == "you":
            parts.append("you control")
        elif owner == "opponent" and owner_default != "opponent":
            parts.append("an opponent controls")
        if flt and flt.acting:
            parts.append(f"acting as {join(flt.acting)}")
        return " ".join(parts)

    # -- one effect --------------------------------------------------------------------------------
    def sentence(self, effect: Effect) -> str:
        """One effect as a sentence."""
        what = self._action(effect)
        trigger = effect.trigger
        if trigger == "activated":
            text = _frequency(effect) + what[0].lower() + what[1:]
        elif trigger == "turn_start":
            text = "At the start of each of your turns, " + what[0].lower() + what[1:]
        elif trigger == "web_gains_card":
            text = "Whenever this food web receives a new card, " + what[0].lower() + what[1:]
        else:  # play, ongoing: the card's kind says when (played once, or while in force)
            text = what
        if effect.multiplayer_only and effect.target not in ("opponent", "random_opponent", "each_opponent"):
            text += " (Not in the single-player game.)"
        return text

    def _who(self, effect: Effect) -> tuple[str, str]:
        """Subject and its verb ending: ('', '') for you (an order), ('an opponent of your choice', 's')."""
        return {
            "you": ("", ""),
            "placer": ("the player who placed this card", "s"),
            "opponent": ("an opponent of your choice", "s"),
            "random_opponent": ("a random opponent", "s"),
            "each_opponent": ("each opponent", "s"),
            "each_player": ("every player", "s"),
        }[effect.target]

    def _action(self, effect: Effect) -> str:
        who, s = self._who(effect)
        you = effect.target == "you"
        who_cap = "" if you else who[0].upper() + who[1:] + " "
        subject = "you" if you else who  # where a sentence needs a subject
        n, flt, action = effect.amount, effect.filter, effect.action
        verb = (lambda v: v.capitalize()) if you else (lambda v: v)
        if action == "draw":
            return f"{who_cap}{verb('draw')}{s} {_cards(n)}."
        if action == "discard_random":
            return f"{who_cap}{verb('discard')}{s} {_cards(n, 'random card')}."
        if action == "discard_matching":
            hand = "your" if you else "their"
            return f"{who_cap}{verb('discard')}{s} from {hand} hand every {self.noun(flt)}."
        if action == "force_trade":
            return (f"Force a trade with {'an opponent' if you else who}: give them a card "
                    "of your choice from your hand and take a random card from theirs.")
        if action == "destroy":
            place = {"opponent": " in the food web of an opponent of your choice",
                     "random_opponent": " in a random opponent's food web"}.get(effect.target, "")
            noun = self.noun(flt, owner_default="opponent" if place else "")
            count = "one" if n == 1 else str(n)
            return f"Destroy {count} {noun}{place}."
        if action == "gain_vp":
            return f"{'+' if n >= 0 else ''}{n} VP{'' if you else ' for ' + who} while this card is in play."
        if action == "vp_per":
            return f"+{n} VP for each {self.noun(flt)}."
        if action == "extra_play":
            return f"{subject.capitalize()} may play {_cards(n, 'extra card')} each turn."
        if action == "free_play":
            return (f"{subject.capitalize()} may play {self.noun(flt, plural=True)} at any time, even outside "
                    f"{'your' if you else 'their'} turn, without using a play.")
        if action == "draw_from_discard":
            return (f"Each time {subject} draw{s} a card, {'you' if you else 'they'} may take it from the discard "
                    "pile instead of the deck.")
        if action == "take_from_discard":
            noun = "card" if flt is None else self.noun(flt)
            return f"{who_cap}{verb('take')}{s} {_cards(n, noun)} of {'your' if you else 'their'} " \
                   "choice from the discard pile."
        if action == "protect":
            what = self.noun(flt, plural=True) if flt else "cards"
            what = what.replace(" you control", "")
            owner = "your" if you else "their"
            return f"Opponents cannot target {owner} {what}."
        raise ValueError(f"no English for action '{action}'")  # the schema lists every action

    def describe(self, effects: Sequence[Effect]) -> str:
        """All effects of a bonus or factor card, one sentence each."""
        return " ".join(self.sentence(e) for e in effects)
