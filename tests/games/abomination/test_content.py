"""The content pack loads, follows the catalog's schemas and counts, and bad data fails clearly."""

from __future__ import annotations

import pytest

from domain.engine import ContentError
from domain.games.abomination import content
from domain.games.abomination.content import C


def test_pack_follows_the_schemas():
    assert {c["deck"] for c in C.cadavers.values()} == {"cemetery", "morgue", "hospital", "publicSquare"}
    assert C.part_limits == {"head": 1, "torso": 1, "arm": 2, "leg": 2}
    assert (C.preservation_cap, C.decay_cap) == (9, 15)
    assert C.dials["humanity"]["min"] < 0 < C.dials["humanity"]["max"]
    blue = [i["at"] for i in C.dials["expertise"]["icons"] if i["icon"] == "BLUE_DIE"]
    assert blue == [10, 20]
    for attr, dial in C.dials.items():
        vps = sorted((i["at"], i["n"]) for i in dial["icons"] if i["icon"] == "VP" and i["at"] > dial["start"])
        assert [n for _, n in vps] == sorted(n for _, n in vps)
    for entry in C.entries.values():
        for choice in entry.get("choices", []):
            assert choice["next"] in C.entries
    kinds = {o["kind"] for o in C.objectives.values()}
    assert kinds == {"inGame", "endGame"}
    assert all("diceMitigation" in r for r in C.research.values())
    for side in ("muscle", "skin"):
        for part in C.anatomy.values():
            vp = part[side]["vpByStage"]
            assert vp["I"] >= vp["II"] >= vp["III"] >= vp["IV"]


@pytest.mark.rule("ABOM-AMB-35")
@pytest.mark.parametrize("bad, message", [
    ([{"op": "police", "n": 1}], "op"),
    ([{"op": "gainMaterials", "items": [{"type": "bone", "stage": "I", "count": 1}]}], "bone has no decay stage"),
    ([{"op": "attribute", "attr": "luck", "n": 1}], "attr"),
    ([{"op": "gainMaterials", "items": [{"type": "blood", "stage": "V", "count": 1}]}], "stage"),
])
def test_bad_effects_raise_clear_content_errors(bad, message):
    with pytest.raises(ContentError) as err:
        content._effects(bad, "cards.toml research re-99")
    assert message in str(err.value) and "re-99" in str(err.value)


def test_faces_must_cover_rounds_once():
    with pytest.raises(ContentError) as err:
        content._faces({"faces": [{"rounds": [1, 6]}, {"rounds": [6, 12]}]}, "event ev-99")
    assert "ev-99" in str(err.value) and "exactly once" in str(err.value)


@pytest.mark.rule("ABOM-AMB-34")
def test_bump_tracks_carry_only_bump_costs():
    for n in (2, 3, 4):
        assert C.bump[n] and all(isinstance(cost, int) and cost >= 0 for cost in C.bump[n])


def _ops(effects):
    for e in effects:
        yield e
        if e["op"] == "choice":
            for option in e["options"]:
                yield from _ops(option)
        if e["op"] == "each":
            yield from _ops(e["effects"])


@pytest.mark.rule("ABOM-AMB-50", "ABOM-AMB-42", "ABOM-AMB-32")
def test_pack_meets_the_component_constraints_of_section_3():
    # 3.5 cadavers: 4 decks, exactly 1 set-aside Public Square card, Hospital >= 4, Public Square >= 2, blood I-II.
    decks = {d: [c for c in C.cadavers.values() if c["deck"] == d and not c.get("setAsideAtSetup")]
             for d in ("cemetery", "morgue", "hospital", "publicSquare")}
    assert len(decks["hospital"]) >= 4 and len(decks["publicSquare"]) >= 2 and all(decks.values())
    assert [k for k, c in C.cadavers.items() if c.get("setAsideAtSetup")] == [C.set_aside]
    assert C.cadavers[C.set_aside]["deck"] == "publicSquare"
    assert all(m["stage"] in ("I", "II") for c in C.cadavers.values() for m in c["materials"] if m["type"] == "blood")
    # 3.6-3.10, 3.12: display sizes can be met and turned over; more events/encounters than a game uses.
    assert len(C.scoundrels) > 3 and len(C.research) > 2 and len(C.humanity) > 2
    assert len(C.events) > 8 and len(C.encounters) > 4 and len(C.cards) <= 144
    assert len(C.characters) >= 4 and sum(ch["notForFirstTwoPlayerGames"] for ch in C.characters.values()) >= 2
    for en in C.encounters.values():
        for face in en["faces"]:
            if face["trigger"]["kind"] == "location":
                assert face["trigger"]["locationId"] in C.locations
    # 3.14 objectives: 6 markers, both kinds, one is the rulebook's "first to 27 Expertise".
    assert len(C.objectives) == 6 and {"inGame", "endGame"} == {o["kind"] for o in C.objectives.values()}
    assert any(o["condition"] == {"stat": "expertise", "atLeast": 27} for o in C.objectives.values())
    # 3.15 dice: six faces, blue strictly better than grey.
    assert C.dice["blue"].count("DAMAGE") < C.dice["grey"].count("DAMAGE")
    assert C.dice["blue"].count("ALIVE") > C.dice["grey"].count("ALIVE")
    # 3.3 dials: starts 0/1/1; negative Humanity VP <= 0; no icon changes its own dial.
    assert [C.dials[a]["start"] for a in ("humanity", "reputation", "expertise")] == [0, 1, 1]
    assert all(i["n"] <= 0 for i in C.dials["humanity"]["icons"] if i["icon"] == "VP" and i["at"] < 0)
    assert not any(i["icon"] in ("GAIN_REPUTATION", "LOSE_REPUTATION") for i in C.dials["reputation"]["icons"])
    # 3.1/3.2 every part of the rules can come into play: the spaces offer each of these effects.
    offered = {(e["op"], e.get("deck", "")) for s in list(C.spaces.values()) + list(C.lab_spaces.values())
               for e in _ops(s["effects"])}
    for need in [("francs", ""), ("gainJar", ""), ("chargeJars", ""), ("gainIce", ""), ("takeScoundrel", ""),
                 ("drawCard", "research"), ("drawCard", "humanity"), ("takeCadaver", "cemetery"),
                 ("takeCadaver", "morgue"), ("takeCadaver", "hospital"), ("takeCadaver", "publicSquare")]:
        assert need in offered, need
    assert any(e["op"] == "francs" and e["n"] > 0 for s in C.spaces.values() for e in _ops(s["effects"]))
    # 3.17 / AMB-32: meeples 4 scientists + 3 assistants per player; jar cap 4 x 4 players = 16 tokens.
    from domain.games.abomination.state import new_player
    p = new_player()
    assert sum(p["card"].values()) + sum(p["reserve"].values()) == 7 and p["card"]["scientist"] + \
        p["reserve"]["scientist"] == 4
    assert C.max_jars * 4 == 16


def test_blood_above_stage_ii_and_a_weak_blue_die_are_refused(monkeypatch):
    import copy
    from domain.engine import content as engine_content
    board = engine_content.load_toml("domain.games.abomination", "board.toml")
    cards = engine_content.load_toml("domain.games.abomination", "cards.toml")

    def fake(pkg, name, _b=board, _c=cards):
        return copy.deepcopy(_b if name == "board.toml" else _c)
    monkeypatch.setattr(content, "load_toml", fake)
    cards["cadavers"][0]["materials"] = [{"type": "blood", "stage": "III", "count": 1}]
    with pytest.raises(ContentError, match="blood is granted at stage I or II"):
        content.load()
    cards["cadavers"][0]["materials"] = [{"type": "blood", "stage": "I", "count": 1}]
    board["dice"]["blue"]["faces"] = list(board["dice"]["grey"]["faces"])
    with pytest.raises(ContentError, match="blue die must be better"):
        content.load()
