"""The sample content pack follows the catalog's schemas and counts (section 3); bad data fails clearly."""

import pytest

from domain.engine import ContentError
from domain.games.adas_dream import content as C


def test_component_counts():
    assert len(C.PROGRAMS) == 28 and len(C.ASSIGNMENTS) == 30 and len(C.OBJECTIVES) == 24
    assert len(C.MULTIPLIERS) == 12 and len(C.BREAKTHROUGHS) == 9 and len(C.LECTURE_REWARD) == 20
    assert sum(1 for t in C.UNI_TILES.values() if t["region"] == "southern") == 8
    assert sum(1 for t in C.UNI_TILES.values() if t["region"] == "central") == 7
    for area in C.AREAS:
        assert len(C.OBJ_BY[(area, "A")]) == 3 and len(C.OBJ_BY[(area, "B")]) == 3
    assert len({tuple(sorted(m.items())) for m in C.MULTIPLIERS.values()}) == 12   # no two costs alike
    rewards = [str(b["reward"]) for b in C.BREAKTHROUGHS.values()]
    assert len(set(rewards)) == 9
    assert sum(1 for p in C.PARTNERS.values() if p["science"] == "none") >= 5
    assert {p["science"] for p in C.PARTNERS.values()} == set(C.SCIENCES) | {"none"}


def test_map_facts_from_the_rulebook():
    assert C.CITIES["manchester"]["kind"] == "university" and C.CITIES["bristol"]["kind"] == "university"
    assert C.CITIES["liverpool"]["kind"] == "small"
    assert C.CITIES["liverpool"]["reward"] == {"all": [{"op": "gain", "resource": "coal", "amount": 1},
                                                       {"op": "gain", "resource": "money", "amount": 3}]}
    assert "liverpool" in [n for n, _ in C.ADJ["manchester"]]
    assert C.TRAVEL_COST["oxford"]["manchester"] == 6
    assert all(C.SMALL_DISTANCE[c] for c in C.CITIES)                   # a small city is reachable from everywhere
    tile = C.UNI_TILES[C.CITIES["manchester"]["standard_tile"]]
    assert C.UNI_TILES[C.CITIES["bristol"]["standard_tile"]]["prestige"] + tile["prestige"] == 4


@pytest.mark.parametrize("effect, message", [
    ({"op": "teleport"}, "op"),
    ({"op": "gain", "resource": "gold", "amount": 1}, "resource"),
    ({"op": "research", "track": "red", "n": 1}, "track"),
    ({"all": [{"op": "draw"}]}, "'n'"),
    ({"cost": [{"op": "draw", "n": 1}], "then": {"op": "draw", "n": 1}}, "cost"),
    ("book", "table"),
])
def test_bad_effects_are_refused_with_a_clear_message(effect, message):
    with pytest.raises(ContentError) as err:
        C.check_effect(effect, "cards.toml x1")
    assert "cards.toml x1" in str(err.value) and message in str(err.value)
