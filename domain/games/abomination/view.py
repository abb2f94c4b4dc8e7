"""What each viewer may see (catalog section 5: H-01, H-02, H-03, H-04, H-05, H-06, H-07, H-08, H-09, H-10, H-11). The one place hidden info is removed."""

from __future__ import annotations

from domain.engine import EVERYONE, copy_state

from .content import C


def view(state, viewer):
    v = copy_state(state)
    if viewer == EVERYONE:
        return v
    decks = v.pop("decks")
    v["deckSizes"] = {k: len(cards) for k, cards in decks.items()}  # H-02, H-05, H-06
    v["morgueTop"] = decks.get("morgue", [None])[0] if decks.get("morgue") else None  # H-03
    hospital = v["displays"]["hospital"]  # H-04: only the top of the face-up pile
    v["displays"]["hospital"] = hospital[:1]
    v["hospitalPile"] = len(hospital)
    v.pop("removedObjectives", None)  # H-09
    v["held"] = [h if h["holder"] == viewer else {"holder": h["holder"]} for h in v["held"]]  # H-01
    for seat, p in enumerate(v["p"]):
        if seat != viewer:  # H-08
            p["hands"] = {k: len(cards) for k, cards in p["hands"].items()}
    for rec in v["pending"]:  # every pending decision, not only the top one (a stack may hold several)
        rec.pop("rest", None)
        if rec["kind"] == "entry":  # H-07: the target sees the prompt and labels only
            rec["prompt"] = C.entries[rec["entry"]]["prompt"]
        if rec["kind"] == "draw" and rec["source"] == "deck":  # H-02: blind, even for the drawer
            rec["cards"] = len(rec["cards"])
        if rec["kind"] == "announce" and rec["seat"] != viewer:
            rec.pop("card", None)
            rec.pop("entry", None)
        if rec["kind"] == "cadaver" and rec["deck"] == "cemetery" and rec["seat"] != viewer:
            rec["cards"] = len(rec["cards"])
    return v
