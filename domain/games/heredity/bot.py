"""What the generic bot (domain/bots) needs from Heredity: what the team knows, and samples of it.

Heredity is cooperative and every seat sees the same table (HER-HIDDEN-*). The one hidden part of
the state is the order of the Karma deck (its composition is public, HER-HIDDEN-08): `knowledge`
sorts it, `sample` shuffles it. The Secrets deck's unrevealed cards are content (the book), not
state: the bot's playouts read the book as the rules do, which is what a determinization of an
unknown order cannot avoid; no face or order a seat cannot see is kept in the knowledge.

The evaluation of an unfinished chapter counts what brings the team nearer to a victory (the
game's own progress score: slain hostiles, explored Terrains, revealed cards), and how close the
Hourglass is to running out, so the search prefers lines that keep the chapter alive.
"""

from __future__ import annotations

from domain.engine import EVERYONE, copy_state

SCORE_SCALE = 6


def knowledge(state: dict, viewer) -> dict:
    k = copy_state(state)
    if viewer != EVERYONE and state["over"] is None:
        k["karma"]["deck"] = sorted(k["karma"]["deck"])          # HER-HIDDEN-08: composition only
    return k


def sample(know: dict, viewer, rng) -> dict:
    s = copy_state(know)
    if viewer != EVERYONE and s["over"] is None:
        s["karma"]["deck"] = rng.shuffled(s["karma"]["deck"])
    return s


def rollout_move(state: dict, seat: int, moves: list[dict], rng) -> dict:
    """Playouts pick a kind of move first, then one of that kind: combined attacks would otherwise
    be nearly every random move (they are most of the list). A voluntary injury (HER-INJURY-05) is
    played only when nothing else is listed: random injuries kill PCs, and a dying PC loses the
    chapter, which would make every line look lost."""
    kinds = sorted({m["type"] for m in moves if m["type"] != "injure"}) or ["injure"]
    kind = rng.choice(kinds)
    return rng.choice([m for m in moves if m["type"] == kind])


def redeal_places(state: dict, seen: set) -> list:
    """What a fork deals again (domain/bots/redeal.py): the Karma deck's order, hidden from every
    seat (HER-HIDDEN-08; its composition is public, so every card of it may trade places). Drawn
    Karma cards go to the discard pile, public, and stay."""
    if state["over"] is not None:
        return []
    return [[(("karma", "deck"), list(range(len(state["karma"]["deck"]))))]]
