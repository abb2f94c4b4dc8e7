"""Fixture chapters and state helpers for Heredity rule tests (original fixture cards)."""

from __future__ import annotations

import copy
import itertools
import pathlib
import tomllib

from domain.engine import IllegalMove, Turn, copy_state, fold, new_game, play as kernel_play
from domain.engine.rng import Rng
from domain.games import heredity as H
from domain.games.heredity import resolver as I
from domain.games.heredity.content import content_from_dict
from domain.games.heredity.lang import compile_block

RULES = H.RULES
BASE = tomllib.loads((pathlib.Path(H.__file__).parent / "content" / "chapter1.toml").read_text())
_ids = itertools.count()
PCS = ("maeve", "brick", "djamal", "nell")


def terrain(number, areas, lines=(), icons=(), edges=None, back=None, lof=(), regroup=None, replaces=None,
            area_map=None, at=None):
    """A fixture Terrain; every face also gets an isolated area 'far' for PCs out of the scene."""
    def face(areas, lines, icons, edges, lof, regroup, area_map):
        areas = dict(areas)
        areas.setdefault("far", 9)
        f = {"areas": [{"id": a, "capacity": c} for a, c in areas.items()],
             "lines": [{"a": a, "b": b, "colour": c} for a, b, c in lines],
             "icons": list(icons), "edges": edges or {}, "lof": [{"from": a, "to": b, "lines": l} for a, b, l in lof]}
        if regroup:
            f["regroup"] = regroup
        if area_map:
            f["area_map"] = area_map
        return f
    rec = {"number": number, "front": face(areas, lines, icons, edges, lof, regroup, area_map)}
    if back is not None:
        rec["back"] = face(**{"lines": (), "icons": (), "edges": None, "lof": (), "regroup": None, "area_map": None, **back})
    if replaces is not None:
        rec["replaces"] = replaces
    if at is not None:
        rec["at"] = at
    return rec


def narrative(number, instructions="", event=None, back=None, **front):
    f = {"instructions": instructions, **front}
    if event is not None:
        f["event"] = event
    rec = {"number": number, "front": f}
    if back is not None:
        rec["back"] = back
    return rec


def chapter(terrains=(), narratives=(), items=(), karma=(), opening=None, starts=None, family=None):
    """Register a fixture chapter: the real core (PCs, Family, Karma) plus the given cards.
    The opening card 699 places the first terrain at (0, 0); PCs start in its 'far' area."""
    data = copy.deepcopy(BASE)
    cid = f"fx-{next(_ids)}"
    data["chapter"]["id"] = cid
    data["chapter"]["first_card"] = 699
    data["chapter"].pop("secrets", None)            # fixtures add and drop cards freely
    data["chapter"]["chapter_setup"] = {}
    terrains = [copy.deepcopy(t) for t in terrains]
    if terrains:
        first = terrains[0]
        starts = starts or {}
        first["front"]["icons"] = list(first["front"]["icons"]) + [
            {"kind": "start", "area": starts.get(pc, "far"), "pc": pc} for pc in PCS]
    data["terrain"] = terrains
    opening_text = opening if opening is not None else (f"PLACE_TERRAIN {terrains[0]['number']} AT 0 0" if terrains else "")
    data["narrative"] = [narrative(699, opening_text)] + list(narratives)
    used = {c["number"] for c in terrains} | {c["number"] for c in narratives} | {c["number"] for c in items}
    data["item"] = [i for i in BASE["item"] if i["number"] not in used] + list(items)
    data["karma"] = BASE["karma"] + list(karma)
    if family:
        data["family"].update(family)
    content_from_dict(data, cid)
    return cid


def game(cid=None, players=1, seed=3, options=None):
    opts = dict(options or {})
    if cid is not None:
        opts["chapter"] = cid
    state, _ = new_game(RULES, players, opts, seed)
    return state


def play(state, move, seat=0, seed=5):
    new, facts = kernel_play(RULES, state, seat, move, seed, 1)
    assert fold(RULES.evolve, copy_state(state), copy.deepcopy(facts)) == new
    return new, facts


def rejects(state, move, rule, seat=0):
    try:
        kernel_play(RULES, state, seat, move, 5, 1)
    except IllegalMove as err:
        assert err.rule_id == rule, (err.rule_id, err.detail)
        return err
    raise AssertionError(f"move {move} was accepted; expected {rule}")


def run_ops(state, text, self_card=None, actor=None, seed=7, vars_=None):
    """Resolve an instruction block (as if a card said it) from `state`; returns (state, facts).
    Stops when the block (and what it started) is resolved or waits for a decision."""
    turn = Turn(RULES, state)
    t = I.Ctx(turn, Rng(seed, 1))
    floor = len(state["stack"])
    I.push(t, compile_block(text, "test"), self_card, actor, "card", vars_, track_face=self_card is not None)
    I.run(t, floor=floor)
    return turn.state, turn.facts


def advance(state, seed=7):
    """Close the action window, let the Hourglass move (and everything that follows)."""
    if state["window"] is not None and state["pending"] is None and len(state["stack"]) == state["window"]:
        return play(state, {"type": "end_window"}, seed=seed)
    turn = Turn(RULES, state)
    I.run(I.Ctx(turn, Rng(seed, 1)))
    return turn.state, turn.facts


def types(facts):
    return [f["type"] for f in facts]


def at(state, **where):
    for pc, area in where.items():
        state["pcs"][pc]["area"] = area
    return state


def take_to_table(state, number, zone="table", face="front"):
    state["cards"][str(number)] = {"zone": zone, "face": face, "tokens": {}}
    return state


def put_npc(state, npc, *areas, damage=0):
    """NPC card in play with standees in the given areas (card stays off the Timeline)."""
    state["cards"].setdefault(str(npc), {"zone": "table", "face": "front", "tokens": {}})
    state["npcs"][str(npc)] = [{"area": a, "damage": damage} for a in areas]
    return state


def set_timeline(state, cards, colours=None, hourglass=0, end=None):
    """Timeline [Family] + cards; colours per position (default green); optional free end slot."""
    colours = colours or ["green"] * len(cards)
    fam = state["timeline"][0]
    line = [fam]
    for number, colour in zip(cards, colours):
        line.append({"colour": colour, "card": number, "below": []})
        if number is not None:
            state["cards"][str(number)] = state["cards"].get(str(number)) or {"zone": "timeline", "face": "front", "tokens": {}}
            state["cards"][str(number)]["zone"] = "timeline"
    if end:
        line.append({"colour": end, "card": None, "below": []})
    state["timeline"] = line
    state["hourglass"] = hourglass
    return state


def karma_top(state, card):
    deck = state["karma"]["deck"]
    if card in deck:
        deck.remove(card)
    elif card in state["karma"]["discard"]:
        state["karma"]["discard"].remove(card)
    deck.insert(0, card)
    return state


def give_item(state, pc, item, anchor=None, face="front"):
    from domain.games.heredity.effects.items import free_anchors
    state["cards"][str(item)] = {"zone": "table", "face": face, "tokens": {}}
    anchor = anchor or free_anchors(state, pc, item)[0]
    state["cards"][str(item)].update({"zone": "inventory", "pc": pc, "anchor": anchor, "area": None})
    state["initialised"].append(item)
    return state


def damage_slot(state, ref):
    state["slots"].setdefault(ref, {"t": None, "d": 0})["d"] = 1
    return state


def mats(state, pc, n):
    state["pcs"][pc]["materials"] = n
    return state


def cover_hearts(state, pc):
    from domain.games.heredity.state import free_heart_slots
    for ref in free_heart_slots(state, pc):
        damage_slot(state, ref)
    return state
