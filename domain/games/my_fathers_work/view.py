"""What each viewer may see (catalog section 5). The one place where hidden information is removed."""

from __future__ import annotations

from domain.engine import EVERYONE, copy_state

from . import content as C
from .scoring import score_track


# MFW-HIDDEN-07 (performed Experiments are public), MFW-HIDDEN-08 (stored ones too), MFW-HIDDEN-09 (Masterworks
# from setup), MFW-HIDDEN-10 and MFW-MALADJ-01 (Maladjustments face up), MFW-HIDDEN-11 (row, Vanity supply,
# Estates, tracks), MFW-HIDDEN-14 (events not yet fired stay out of the fired list), MFW-HIDDEN-15 (discarded
# Compulsions are counted, never shown), MFW-FAQ-01 (a secret message only to its recipient), MFW-COMPULSION-01
# (a seat's Compulsions are a secret pile)
def view(state: dict, viewer) -> dict:
    v = copy_state(state)
    if viewer == EVERYONE:
        return _score_tokens(v)
    _score_tokens(v)
    v.pop("queue", None)  # internal continuation; may name hidden cards
    v["decks"] = {k: len(d) for k, d in state["decks"].items()}  # MFW-HIDDEN-03
    for seat, pl in enumerate(v["players"]):
        if seat == viewer:
            continue
        pl["hand"] = [C.EXPERIMENTS[c]["level"] for c in pl["hand"]]  # MFW-HIDDEN-01: levels only
        pl["ea"] = len(pl["ea"])  # MFW-HIDDEN-05, MFW-HIDDEN-16
        pl["comps"] = len(pl["comps"])  # MFW-HIDDEN-02
    pend = v.get("pending")
    if pend is not None:
        if pend["kind"] == "sim":
            pend["options"] = {k: o for k, o in pend["options"].items() if k == str(viewer)}
            pend["forced"] = {k: o for k, o in pend.get("forced", {}).items() if k == str(viewer)}
        elif pend.get("secret") and pend["seat"] != viewer:
            v["pending"] = {"seat": pend["seat"], "kind": pend["kind"], "secret": True}  # MFW-HIDDEN-13, MFW-HIDDEN-16
    v["commits"] = {k: o for k, o in state["commits"].items() if k == str(viewer)}  # MFW-HIDDEN-12
    v["messages"] = [m for m in state["messages"] if m["to"] is None or m["to"] == viewer]  # MFW-HIDDEN-13
    # MFW-HIDDEN-13: secret events leave the fired list (even for their recipient, who reads them in
    # "messages": a repeated consult event would otherwise tell how often others got the same secret)
    v["fired"] = [e for e in state["fired"] if not C.scenario_secret(e)]
    return v


def _score_tokens(v: dict) -> dict:
    """MFW-SCORE-02, MFW-SCORE-03: the +50/+100 token and the marker position, derived from the total."""
    for pl in v["players"]:
        pl.update(score_track(pl["score"]))
    return v
