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
