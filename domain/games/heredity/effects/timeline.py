"""Karma draws and evolution, the action window, victory and defeat.
"""

from __future__ import annotations

from ..resolver import actor_pc, cond, Ctx, push, top
from ..state.queries import C, face


def draw_karma(t: Ctx) -> int:
    """HER-KARMA-02, HER-KARMA-04, HER-COMBAT-07."""
    k = t.s["karma"]
    if not k["deck"]:
        order = t.rng.shuffled(k["discard"])
        t.emit("KarmaShuffled", order=order, random=True, private_to=[], public={"count": len(order)})
    card = t.s["karma"]["deck"][0]
    rec = C(t.s).card(card)
    t.emit("KarmaDrawn", card=card, name=rec["name"], value=rec["value"], fails=rec["fails"], random=True)
    return card


def op_draw_karma(t, op):
    card = draw_karma(t)
    if op.get("bind"):
        t.emit("Bound", var=op["bind"], card=card)


def op_karma_evolve(t, op):
    """HER-KARMA-06, HER-KARMA-07, HER-KARMA-08."""
    s = t.s
    new = op["card"]
    rec = C(s).card(new)
    t.emit("CardTaken", card=new, zone="karma")
    cards = s["karma"]["deck"] + s["karma"]["discard"]
    old = next((c for c in cards if C(s).card(c)["type"] == rec["type"]), None)
    rest = [c for c in cards if c != old] + [new]
    order = t.rng.shuffled(rest)
    t.emit("KarmaEvolved", new=new, old=old, order=order, random=True, private_to=[],
           public={"new": new, "old": old, "count": len(order)})
    if old is not None:
        t.emit("CardBurned", card=old)


def op_karma_effect(t, op):
    card = t.s["bind"][op["bind"]]
    push(t, list(C(t.s).card(card)["effect"]), top(t)["self"], actor_pc(t))


def op_retrieve(t, op):
    t.emit("TokensRetrieved")                                                # HER-TIMELINE-07


def op_window(t, op):
    """HER-TIMELINE-08: opens the window; the end_window move steps past it."""
    if t.s["window"] is None:
        t.emit("WindowOpened", depth=len(t.s["stack"]))


def check_defeat(s: dict, family: bool = True) -> str | None:
    """The first fulfilled defeat condition: the Family card's (HER-TIMELINE-09, HER-DYING-06) when `family`,
    then those printed by the narrative cards in play (HER-TIMELINE-14)."""
    fam = C(s).card(C(s).family)["front"]
    if family and eval_static(s, fam["defeat"]):
        return "the Family card's Defeat condition is fulfilled"
    for key, card in s["cards"].items():
        rec = C(s).card(int(key))
        if card["zone"] in ("timeline", "table") and rec["kind"] == "narrative":
            d = face(s, int(key)).get("defeat")
            if d is not None and eval_static(s, d, int(key)):
                return f"the defeat condition of card {key} is fulfilled"
    return None


def eval_static(s: dict, c: dict, self_card=None) -> bool:
    fake = Ctx(type("T", (), {"state": s})(), None)
    s_stack_backup = s["stack"]
    if self_card is not None:
        s["stack"] = s_stack_backup + [{"ops": [], "i": 0, "self": self_card, "actor": None, "face": None,
                                        "vars": {}, "kind": "probe"}]
    try:
        return cond(fake, c)
    finally:
        s["stack"] = s_stack_backup


def op_check_defeat(t, op):
    """HER-TIMELINE-09, HER-TIMELINE-14, HER-DYING-06, HER-AMB-40. The Family card's Defeat condition (a Dying PC dies)
    is
    checked where the Family card's Event section concludes: "The Event section of the Family card concludes
    by checking the 'Defeat condition'". The check after any other card's Event (a frame of kind "check")
    evaluates only the conditions printed by other cards, so a PC made Dying by an NPC can still be healed
    in the next action window ("as soon as a Damage token is removed ... they are no longer Dying")."""
    frame = top(t)
    reason = check_defeat(t.s, family=frame["kind"] != "check" or bool(frame["vars"].get("family")))
    if reason:
        t.emit("GameEnded", outcome="defeat", reason=reason)


def op_victory(t, op):
    t.emit("GameEnded", outcome="victory", reason=f"card {top(t)['self']}")


def op_defeat(t, op):
    t.emit("GameEnded", outcome="defeat", reason=f"card {top(t)['self']}")


def op_purple(t, op):
    """HER-COMP-01 / HER-AMB-43: the purple token joins a PC's tokens only when a card says so."""
    if op["pc"] in t.s["pcs"] and t.s.get("purple") != op["pc"]:
        t.emit("PurpleAssigned", pc=op["pc"])
