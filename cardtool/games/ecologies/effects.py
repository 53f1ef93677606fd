"""The effect vocabulary of docs/effects.md, each action word implemented once and dispatched from data.

A card's effects run as a job on the state's stack: one effect at a time, so an effect that needs a
choice (an opponent to target, a card to destroy or take) pushes that choice above the rest of the job,
and the job resumes once it is answered. Ongoing words (gain_vp, vp_per, extra_play, free_play,
draw_from_discard, protect) are read where they matter (state.vp, rules) and do nothing when "run".
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from cardtool.games.ecologies.arrange import alternatives, fits_with
from cardtool.games.ecologies.model import Effect
from cardtool.games.ecologies.table import matches

#: Words that only make sense while in force; run as a one-off they do nothing.
ONGOING_WORDS = ("gain_vp", "vp_per", "extra_play", "free_play", "draw_from_discard", "protect")


#: Words that bring cards back from the discard pile: never usable alone (rulebook, single-player game:
#: "Don't recycle the discard pile"), even where a deck forgets to mark them multiplayer-only.
RECYCLING_WORDS = ("take_from_discard", "draw_from_discard")


def usable(state, effect: Effect) -> bool:
    """The single-player game cannot use multiplayer-only effects (every effect hitting opponents, and
    those the data marks as unfair alone) nor any effect that recycles the discard pile."""
    return state.game.mode != "single" or not single_excluded(effect)


def single_excluded(effect: Effect) -> bool:
    """Whether the rulebook's single-player note excludes an effect: multiplayer or unfair alone."""
    return effect.multiplayer_only or effect.action in RECYCLING_WORDS


def start(state, controller: int, placer: int, source: int, effects: Sequence[Effect]) -> None:
    """Queue a card's effects to run in order (the caller runs the stack)."""
    if effects:
        state.stack.append(("job", controller, placer, source, tuple(effects), 0))


def run_job(state, frame: tuple) -> None:
    """Run the next effect of a job, leaving the rest of the job below anything it asks."""
    _, controller, placer, source, effects, index = frame
    if index + 1 < len(effects):
        state.stack.append(("job", controller, placer, source, effects, index + 1))
    effect = effects[index]
    if usable(state, effect):
        perform(state, controller, placer, source, effect)


def perform(state, controller: int, placer: int, source: int, effect: Effect) -> None:
    """Resolve an effect's target, asking the controller to choose an opponent when it is `opponent`."""
    if effect.action in ONGOING_WORDS:
        return
    if effect.target == "opponent" and effect.action != "destroy":
        if eligible_opponents(state, controller, effect):
            state.stack.append(("seat", controller, placer, source, effect))
        return
    WORDS[effect.action](state, controller, placer, source, effect, targets(state, effect, controller, placer))


def targets(state, effect: Effect, controller: int, placer: int) -> list[int]:
    """The seats an effect acts on (for `opponent`, every opponent: destroy then lets the controller pick
    one of their cards). `random_opponent` is drawn here with the game's generator."""
    players = state.game.players
    target = effect.target
    if target == "you":
        return [controller]
    if target == "placer":
        return [placer]
    others = [(controller + k) % players for k in range(1, players)]
    if target == "each_player":
        return [controller] + others
    if target == "random_opponent":
        return [others[state.rng.randrange(len(others))]] if others else []
    return others  # each_opponent, and opponent (chosen later, per card)


def eligible_opponents(state, controller: int, effect: Effect) -> list[int]:
    """Opponents the controller may target with this effect: not protected, and it would do something."""
    hands = state.hands
    result = []
    for seat in range(state.game.players):
        if seat == controller or state.protected(seat, None, controller):
            continue
        if effect.action in ("discard_random", "force_trade") and not hands[seat]:
            continue
        if effect.action == "force_trade" and not hands[controller]:
            continue
        result.append(seat)
    return result


def can_do(state, controller: int, effect: Effect, *, hand_after: int) -> bool:
    """Whether an effect would do anything now (a card whose effects would all do nothing cannot be
    played, and a bonus that would do nothing cannot be used). `hand_after` is the controller's hand size
    once the card playing it has left the hand."""
    if not usable(state, effect) or effect.action in ONGOING_WORDS:
        return False
    action, target = effect.action, effect.target
    if target == "opponent" and action != "destroy":
        if action == "force_trade" and hand_after == 0:
            return False
        return bool(eligible_opponents(state, controller, effect))
    if action == "force_trade":
        return hand_after > 0 and any(state.hands[s] for s in targets_static(state, effect, controller))
    if action == "destroy":
        owners = targets_static(state, effect, controller)
        return next(destroy_candidates(state, controller, effect, owners, target == "opponent"), None) is not None
    if action == "take_from_discard":
        return bool(take_candidates(state, controller, effect))
    if action == "discard_random":
        return any(state.hands[s] for s in targets_static(state, effect, controller))
    return True


def targets_static(state, effect: Effect, controller: int) -> list[int]:
    """The seats an effect could act on, without drawing `random_opponent`."""
    players = state.game.players
    if effect.target in ("you", "placer"):
        return [controller]
    others = [s for s in range(players) if s != controller]
    return [controller] + others if effect.target == "each_player" else others


# -- the action words


def draw(state, controller, placer, source, effect, seats) -> None:
    for seat in seats:
        draw_cards(state, seat, effect.amount, "effect")


def draw_cards(state, seat: int, count: int, why: str) -> None:
    """Draw cards; on its own turn a seat with a healthy Urban chooses deck or discard for each."""
    if count <= 0:
        return
    if may_draw_from_discard(state, seat):
        state.stack.append(("draw", seat, count, why))
        return
    for _ in range(count):
        state.draw_one(seat, "deck", why)


def may_draw_from_discard(state, seat: int) -> bool:
    return (seat == state.seat and bool(state.discard) and state.game.mode != "single"
            and bool(state.ongoing(seat, "draw_from_discard")))


def discard_random(state, controller, placer, source, effect, seats) -> None:
    for seat in seats:
        hand = state.hands[seat]
        for _ in range(effect.amount):
            if not hand:
                break
            card = hand[state.rng.randrange(len(hand))]
            state.from_hand(seat, card)
            state.to_discard(card, seat, "random")


def discard_matching(state, controller, placer, source, effect, seats) -> None:
    table = state.game.table
    for seat in seats:
        relation = "you" if seat == controller else "opponent"
        for card in [c for c in state.hands[seat]
                     if matches(table, effect.filter, c, owner_relation=relation, acting=None, code=None)]:
            state.from_hand(seat, card)
            state.to_discard(card, seat, "matching")


def force_trade(state, controller, placer, source, effect, seats) -> None:
    for seat in reversed(seats):
        for _ in range(effect.amount):
            state.stack.append(("give", controller, seat, source, effect))


def give_and_take(state, controller: int, seat: int, card: int) -> None:
    """A forced trade: take a random card from the opponent's hand, then give them the chosen card."""
    hand = state.hands[seat]
    taken = hand[state.rng.randrange(len(hand))]
    state.from_hand(seat, taken)
    state.from_hand(controller, card)
    state.to_hand(controller, taken, public=True)
    state.to_hand(seat, card, public=True)
    state.log("give", controller, card, seat)
    state.log("give", seat, taken, controller)


def destroy(state, controller, placer, source, effect, seats) -> None:
    """`opponent`: the controller picks among every targetable opponent's cards; `each_opponent` and
    `each_player`: one pick per player; otherwise among the cards of the seat(s) drawn."""
    targeted = effect.target == "opponent"
    groups = [seats] if targeted or len(seats) <= 1 else [[s] for s in seats]
    for owners in reversed(groups):
        state.stack.append(("destroy", controller, source, effect, tuple(owners), targeted, effect.amount))


def destroy_candidates(state, controller: int, effect: Effect, owners: Sequence[int], targeted: bool
                       ) -> Iterator[int]:
    """Organisms on the table an effect may destroy: in the owners' ecologies, matching the filter by
    their current role and the biome of their ecology, and (when targeted) not protected."""
    table = state.game.table
    for eco in state.ecos.values():
        if eco.owner not in owners:
            continue
        relation = "you" if eco.owner == controller else "opponent"
        for card, role in zip(eco.cards, eco.roles):
            if not matches(table, effect.filter, card, owner_relation=relation, acting=role, code=eco.code):
                continue
            if targeted and state.protected(eco.owner, card, controller):
                continue
            yield card


def destroy_card(state, card: int, by: int) -> None:
    """Destroy an organism: it goes to the discard pile and its owner rearranges what is left.

    Cards left without food wait in limbo while the owner, if a free_play effect was in force for them
    when the card was destroyed (a healthy Riparian, even the one just disturbed), may play matching
    cards from hand, outside their turn, to feed them; then they move to another of the owner's
    ecologies where they can be fed, or are discarded.
    """
    eco = state.eco_of(card)
    free = tuple(a.effect.filter for a in state.ongoing(eco.owner, "free_play"))
    state.log("destroy", eco.owner, card, by)
    state.discard.append(card)
    dropped = state.arrange_eco(eco.biome, tuple(c for c in eco.cards if c != card))
    if not dropped:
        ask_arrangement(state, eco.biome)
        return
    state.limbo.extend(dropped)
    frame = ("rescue", eco.owner, eco.biome, dropped, free)
    if rescue_plays(state, frame):
        state.stack.append(frame)
    else:
        relocate(state, eco.owner, eco.biome, dropped)


def ask_arrangement(state, biome: int) -> None:
    """Let an ecology's owner choose its arrangement among those as good as the solver's (every card
    fed, the same health and role-bonus VP: arrange.alternatives), when there is a choice to make.

    Asked after each change to the web (a play, a move, a disturbance), never in answer to being
    targeted. The single-player game never asks: alone, nothing can target a role, so no choice matters.
    """
    eco = state.ecos.get(biome)
    if eco is None or len(eco.cards) < 2 or state.game.mode == "single":
        return
    options = alternatives(state.game.table, eco.code, eco.cards, eco.weights)
    if len(options) > 1:
        state.stack.append(("arrange", eco.owner, biome, options))


def rescue_plays(state, frame: tuple) -> list[tuple[int, int]]:
    """(card, ecology) pairs the owner of a disturbed ecology may play for free to feed its cards."""
    table = state.game.table
    _, owner, _, _, free = frame
    if not free:
        return []
    own = state.ecologies_of(owner)
    return [(card, eco.biome) for card in sorted(state.hands[owner])
            if table.kind[card] == "organism"
            and any(matches(table, f, card, owner_relation="you", acting=None, code=None) for f in free)
            for eco in own if eco.code in table.biomes[card] and fits_with(table, eco.code, eco.cards, eco.roles, card)]


def relocate(state, owner: int, biome: int, cards) -> None:
    """Cards in limbo left without food: each moves to another of the owner's ecologies where it can
    be fed (the first in play order), or is discarded. Then the owner chooses how the disturbed web and
    those that took its cards are arranged."""
    table = state.game.table
    changed = [biome]
    for card in cards:
        state.limbo.remove(card)
        for other in state.ecologies_of(owner):
            if (other.biome != biome and other.code in table.biomes[card]
                    and fits_with(table, other.code, other.cards, other.roles, card)):
                state.arrange_eco(other.biome, other.cards + (card,))
                state.log("move", owner, card, other.biome)
                changed.append(other.biome)
                break
        else:
            state.to_discard(card, owner, "starved")
    for web in dict.fromkeys(reversed(changed)):
        ask_arrangement(state, web)


def take_from_discard(state, controller, placer, source, effect, seats) -> None:
    for seat in reversed(seats):
        state.stack.append(("take", seat, controller, source, effect, effect.amount))


def take_candidates(state, controller: int, effect: Effect) -> list[int]:
    table = state.game.table
    return sorted({c for c in state.discard
                   if matches(table, effect.filter, c, owner_relation="you", acting=None, code=None)})


def web_gains(state, biome: int, new_card: int) -> None:
    """A food web received a new card: run the `web_gains_card` effects of the cards placed on it."""
    table = state.game.table
    for card, placer in reversed(state.ecos[biome].factors):
        if card == new_card:
            continue
        triggered = [e for e in table.effects[card] if e.trigger == "web_gains_card"]
        start(state, placer, placer, card, triggered)


def _nothing(state, controller, placer, source, effect, seats) -> None:
    """Ongoing words run as a one-off do nothing (see ONGOING_WORDS)."""


WORDS: dict[str, Callable] = {
    "draw": draw,
    "discard_random": discard_random,
    "discard_matching": discard_matching,
    "force_trade": force_trade,
    "destroy": destroy,
    "take_from_discard": take_from_discard,
    **{word: _nothing for word in ONGOING_WORDS},
}
