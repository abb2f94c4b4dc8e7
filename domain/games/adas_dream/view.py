"""view: the one place that decides what each viewer may see (catalog section 5)."""

from __future__ import annotations

from domain.engine import EVERYONE, can_see

from . import content as C
from .state import choice_options


def view(state: dict, viewer) -> dict:
    over = state["over"]
    full = over or viewer == EVERYONE
    players = []
    for seat, p in enumerate(state["players"]):
        mine = full or can_see(viewer, seat)
        # known_partners only feeds the running score; kept out so a card's name never sits next to the hand
        q = {k: v for k, v in p.items() if k not in ("deck", "hand", "known_partners")}
        q["deck_size"] = len(p["deck"])                      # deck order: hidden from everyone (5.2)
        q["hand_size"] = len(p["hand"])
        q["hand"] = list(p["hand"]) if mine else None        # hands: owner only (5.1)
        if full:
            q["deck"] = list(p["deck"])
        players.append(q)
    out = {k: v for k, v in state.items() if k not in ("players", "stacks", "flow", "unused_tier1")}
    out["players"] = players
    out["stack_sizes"] = {k: len(v) for k, v in state["stacks"].items()}
    # public knowledge (5.2): how many tier-1 cards still sit on top of the Meeting deck
    out["meeting_deck_tier1"] = sum(1 for c in state["stacks"]["meet"] if C.partner(c)["tier"] == "1")
    if full:
        out["stacks"] = state["stacks"]
        out["unused_tier1"] = state.get("unused_tier1", [])
    fl = state["flow"]
    top = fl["agenda"][-1] if fl["agenda"] else None
    pending = None
    if top is not None:
        pending = {"kind": top.get("kind") or top.get("name"), "seat": fl["seat"]}
        if top["k"] == "choice" and (full or can_see(viewer, fl["seat"])):
            pending["options"] = choice_options(state, top)
    out["turn"] = {k: fl.get(k) for k in ("seat", "ttype", "area", "adj_used", "played6", "opt_done", "deferred")}
    out["pending"] = pending
    out["flow"] = public_flow(fl)
    return out


#: What of the owed choice on top of the agenda everyone may see: its kind and chooser, and its
#: options when they are listed (`opts`: never a hand's cards, which are named by `from`).
PUBLIC_TOP = ("k", "name", "kind", "s", "d", "opts", "optional")


def public_flow(fl: dict) -> dict:
    """The turn's flow as everyone sees it: whose turn, its type and area, the deferred Build, and
    only the top of the agenda (what is decided now) without a hand's cards. The prompt is drawn
    from it (words.prompt reads a view, issue 30.3)."""
    top = fl["agenda"][-1] if fl["agenda"] else None
    shown = {k: fl.get(k) for k in ("seat", "ttype", "area", "adj_used", "played6", "opt_done", "deferred",
                                     "final_wait")}
    shown["agenda"] = [] if top is None else [{k: top[k] for k in PUBLIC_TOP if k in top}]
    return shown


def view_move(move: dict, facts: list, mover: int, viewer) -> dict:
    """A played move as `viewer` sees it in listings: always whole.

    No Ada's Dream move names anything hidden: a pick among one's own cards (a discard, a free play, a
    removal, the hand limit) is made public by the fact it produces, and what a move draws or shuffles
    lives in its facts, which are redacted on their own (`visible_fact`). So a move that draws cards or
    refills the Workshop stays readable for everyone, while the cards drawn do not."""
    return move
