"""Issue 12 for Heredity: labels, prompts, sentences and the board picture over seeded playouts.

Every listed move has a label and every decision a prompt, none with an internal id (area refs
"101:o1", slot codes "4.a", markers "101/front/4", anchors "12:right:0", "Karma 906", "card 110");
the last sentence of a chapter says how it ended and the final scores. Every step is drawn for
every viewer and parsed as XML; a spectator's picture holds no name of a card hidden from it.
"""

from __future__ import annotations

import copy
import random
import re
import xml.etree.ElementTree as ET

import pytest

from domain.engine import EVERYONE, SPECTATOR, ContentError, new_game, play
from domain.games.heredity import RULES, SWAN, words

#: The id shapes words must never show.
INTERNAL = re.compile(r"\b\d+:\w+|\b\d+\.[a-z]\w*|\d+/(front|back)/\d+|:(left|right):\d|\bKarma \d|\bcard \d+"
                      r"|\bTerrain \d+|\w_\w|[{}\[\]]|\bNone\b")
NAMES = ["Annette", "Bruno", "Clara", "Dmitri"]


def _texts(svg: str) -> str:
    return " ".join(ET.fromstring(svg).itertext())


def _hidden_names(state: dict, view: dict) -> set[str]:
    """Names of Items and Karma cards of the chapter that the view does not show face up."""
    shown = set(view["cards"]) | set(view["archive"])
    out = set()
    for number, card in SWAN.cards.items():
        if str(number) in shown:
            continue
        if card["kind"] == "item":
            out |= {f["name"] for f in (card["front"], card.get("back")) if f}
        elif card["kind"] == "narrative":
            for f in (card["front"], card.get("back")):
                if f and f.get("npc") and not any(f["npc"]["name"] in words.npc_name(view, int(k))
                                                  for k in shown if k.isdigit()):
                    out.add(f["npc"]["name"])
    # the other face of a card in play is hidden too
    for key, card in view["cards"].items():
        rec = SWAN.cards[int(key)]
        if rec["kind"] == "item" and rec.get("back"):
            other = rec["back"] if card["face"] == "front" else rec["front"]
            if other["name"] != SWAN.face(int(key), card["face"])["name"]:
                out.add(other["name"])
    # the words of narrative cards the view does not show (the other face of a card in play included)
    seen_text = {c.get("narrative") for c in view["cards"].values()} | {
        f.get("narrative") for a in view["archive"].values() for side, f in a.items() if side != "faces"}
    for number, card in SWAN.cards.items():
        if card["kind"] == "narrative":
            for f in (card["front"], card.get("back")):
                if f and f.get("narrative") and f["narrative"] not in seen_text:
                    out.add(words._snippet(f["narrative"]).removesuffix("..."))
    visible_items = {SWAN.face(int(k), c["face"])["name"] for k, c in view["cards"].items() if c["kind"] == "item"}
    return out - visible_items


def _walk(players: int, seed: int, every=None, end: list | None = None):
    """Yield (state before, seat, move, facts) along one seeded playout; the final state goes to `end`."""
    rnd = random.Random(seed * 31 + players)
    state, _ = new_game(RULES, players, {}, seed)
    k = 0
    while not RULES.is_over(state):
        decision = RULES.decision(state)
        seat = rnd.choice(list(decision.seats))
        moves = RULES.legal_moves(state, seat)
        if every:
            every(state, seat, moves, k)
        move = rnd.choice(moves)
        k += 1
        after, facts = play(RULES, state, seat, move, seed, k)
        yield state, seat, move, facts
        state = after
    if end is not None:
        end.append(state)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_labels_prompts_and_sentences_carry_no_ids(players):
    kinds = set()

    def check(state, seat, moves, k):
        ask = RULES.prompt(state)
        assert ask and not INTERNAL.search(ask), ask
        if state["pending"]:
            kinds.add(state["pending"]["kind"])
            assert ask.startswith("Seat ") and ": " in ask, ask
        for move in moves:
            said = RULES.label(state, seat, move)
            assert said and not INTERNAL.search(said), (move, said)

    for seed in range(3):
        last = ""
        for state, seat, move, facts in _walk(players, seed, check):
            last = RULES.describe(state, seat, move, facts)
            assert not INTERNAL.search(last), last
            assert not re.search(r"\b1 (Materials|Action tokens)\b|\ba [AEIOU]|\(s\)", last), last
        assert re.search(r"the chapter is (won|lost)", last), last
        points = "100" if state["over"] == "victory" or "won" in last else "0"
        assert last.endswith("Final scores: " + ", ".join(f"Seat {k} {points}" for k in range(players)) + "."), last
    assert "damage_slot" in kinds


def test_prompt_names_the_decider_and_the_options():
    for state, seat, move, facts in _walk(2, 1):
        if state["pending"] and state["pending"]["kind"] == "damage_slot":
            ask = RULES.prompt(state)
            pc = words.pc_name(state, state["pending"]["pc"])
            assert ask.startswith(f"Seat {state['control'][state['pending']['pc']][0]}")
            assert f"choose where {pc}'s Damage goes" in ask and ask.count("; or ") == len(
                state["pending"]["options"]) - 1
            return
    pytest.fail("no Damage decision in the playout")


def test_every_terrain_and_area_of_the_chapter_has_a_name():
    for number, card in SWAN.cards.items():
        if card["kind"] == "terrain":
            assert words.terrain_name(number).startswith("the ")
            for side in ("front", "back"):
                for area in words._area_ids(card.get(side) or {}):
                    assert not words.area_name(f"{number}:{area}").startswith("an area")


def test_a_layout_naming_an_area_the_terrain_lacks_is_refused(monkeypatch):
    bad = copy.deepcopy(words.LAYOUT)
    bad["terrain"]["101"]["areas"]["o9"] = {"name": "Nowhere", "x": 0.5, "y": 0.5}
    monkeypatch.setattr(words.names, "LAYOUT", bad)
    with pytest.raises(ContentError, match="o9"):
        words.check_layout(SWAN)
    del bad["terrain"]["101"]["areas"]["o9"]
    del bad["terrain"]["103"]
    with pytest.raises(ContentError, match="103"):
        words.check_layout(SWAN)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_step_drawn_for_every_viewer_hides_what_the_spectator_cannot_see(players):
    viewers = [SPECTATOR, EVERYONE] + list(range(players))
    names = NAMES[:players]
    drawn = 0
    for k, (state, seat, move, facts) in enumerate(_walk(players, 7)):
        for viewer in viewers if k % 4 == 0 else [SPECTATOR]:
            view = RULES.view(state, viewer)
            svg = RULES.picture(view, viewer, names)
            assert len(svg.encode()) <= 150_000
            text = _texts(svg)                       # parses as XML
            drawn += 1
            if viewer == SPECTATOR:
                leaked = [n for n in _hidden_names(state, view) if n in text]
                assert not leaked, f"spectator picture shows hidden cards {leaked} at step {k}"
                assert not INTERNAL.search(text.replace("Heredity: ", "")), text
    assert drawn > 20


def test_the_picture_shows_names_pieces_and_the_end():
    seen_terrain = seen_damage = False
    end: list = []
    for state, seat, move, facts in _walk(3, 5, end=end):
        view = RULES.view(state, SPECTATOR)
        text = _texts(RULES.picture(view, SPECTATOR, NAMES[:3]))
        for key in view["terrains"]:
            assert words.terrain_name(key) in text
        for pc in view["pcs"].values():
            assert pc["name"] in text and (not pc["area"] or words.area_name(pc["area"]).removeprefix("the ") in text)
        seen_terrain |= len(view["terrains"]) > 1
        seen_damage |= 'fill="#b71c1c"' in RULES.picture(view, SPECTATOR, NAMES[:3])
    final = RULES.picture(RULES.view(end[0], SPECTATOR), SPECTATOR, NAMES[:3])
    assert "The chapter is " in _texts(final) and seen_terrain and seen_damage
