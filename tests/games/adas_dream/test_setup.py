"""Setup (2.1) for every player count and both modes."""

import pytest

from domain.engine import IllegalMove, new_game
from domain.games.adas_dream import RULES
from domain.games.adas_dream import content as C


def table(n, seed=3, **options):
    state, facts = new_game(RULES, n, options, seed)
    return state


def dice_total(state):
    counts = dict(state["bag"])
    for space in state["workshop"]:
        for d in space:
            counts[d["c"]] += 1
    return counts


@pytest.mark.rule("ADA-SETUP-01")
@pytest.mark.parametrize("n", [0, 1, 5])
def test_player_count(n):
    with pytest.raises(IllegalMove) as err:
        RULES.initial_state(n, {})
    assert err.value.rule_id == "ADA-SETUP-01"


@pytest.mark.rule("ADA-SETUP-02", "ADA-SETUP-03", "ADA-SETUP-04", "ADA-SETUP-05")
@pytest.mark.parametrize("n,per,bag", [(4, 10, 32), (3, 9, 27), (2, 8, 22)])
def test_dice_per_player_count(n, per, bag):
    state = table(n)
    assert dice_total(state) == {c: per for c in C.DIE_COLOURS}
    assert [len(s) for s in state["workshop"]] == [3] * 6
    assert sum(state["bag"].values()) == bag
    assert all(1 <= d["v"] <= 6 for s in state["workshop"] for d in s)


@pytest.mark.rule("ADA-SETUP-06", "ADA-SETUP-07", "ADA-SETUP-08", "ADA-SETUP-09", "ADA-SETUP-31", "ADA-AMB-46",
                  "ADA-AMB-59")
def test_standard_and_randomised_layouts():
    std = table(3)
    assert std["objectives"] == C.STANDARD["objectives"] and std["breakthroughs"] == C.STANDARD["breakthroughs"]
    assert all(std["univ_tiles"][c] == C.CITIES[c]["standard_tile"] for c in C.REGION_CITIES["southern"])
    with pytest.raises(IllegalMove) as err:
        RULES.initial_state(3, {"mode": "chaos"})
    assert err.value.rule_id == "ADA-SETUP-06"
    with pytest.raises(IllegalMove):
        RULES.initial_state(3, {"colour": "red"})
    seen_letters = set()
    for seed in range(8):
        r = table(3, seed=seed, mode="randomised")
        for region in ("southern", "central"):
            tiles = [r["univ_tiles"][c] for c in C.REGION_CITIES[region]]
            assert all(C.UNI_TILES[t]["region"] == region for t in tiles) and len(set(tiles)) == len(tiles)
        assert all(r["univ_tiles"][c] == C.FIXED_TILES[c]["id"] for c in C.REGION_CITIES["fixed"])
        letters = {C.OBJECTIVES[o]["letter"] for o in r["objectives"].values()}
        assert len(letters) == 1 and all(C.OBJECTIVES[r["objectives"][a]]["area"] == a for a in C.AREAS)
        seen_letters |= letters
        assert len(set(r["breakthroughs"].values())) == 4
    assert seen_letters == {"A", "B"}
    fixed = table(3, seed=1, mode="randomised", objective_letter="B")
    assert {C.OBJECTIVES[o]["letter"] for o in fixed["objectives"].values()} == {"B"}


@pytest.mark.rule("ADA-SETUP-10", "ADA-RESEARCH-05", "ADA-RESEARCH-06", "ADA-AMB-15")
def test_assignment_scoring_stacks():
    from tests.games.adas_dream.helpers import G
    g = G(n=3)
    top = C.RESEARCH["green"]["top"]
    for seat, value in ((0, 2), (1, 1), (2, 1)):
        g.p(seat)["research"]["green"] = top - 1
        g.set_flow(seat)
        from domain.games.adas_dream import effects as E, resolver as R
        from domain.engine import Turn
        turn = Turn(RULES, g.s)
        ctx = R.Ctx(turn, None, seat)
        E.research_point(ctx, seat, "green")
        g.s = turn.state
        assert g.p(seat)["atokens"] == {"green": value}
    g.p(0)["research"]["green"] = top - 1
    g.p(0)["atokens"] = {"green": 2}
    turn = Turn(RULES, g.s)
    E.research_point(R.Ctx(turn, None, 0), 0, "green")
    assert turn.state["players"][0]["atokens"] == {"green": 2}


@pytest.mark.rule("ADA-SETUP-11", "ADA-SETUP-12", "ADA-SETUP-13", "ADA-SETUP-19", "ADA-AMB-57")
def test_displays_and_stacks():
    s = table(2)
    assert sorted(s["room_science"]) == sorted(C.SCIENCES)
    assert len([t for t in s["displays"]["prog"] if t]) == 5 and len(s["stacks"]["prog"]) == 23
    assert len([t for t in s["displays"]["assign"] if t]) == 4 and len(s["stacks"]["assign"]) == 26
    assert len([t for t in s["displays"]["mult"] if t]) == 2 and len(s["stacks"]["mult"]) == 10


@pytest.mark.rule("ADA-SETUP-14", "ADA-SETUP-15", "ADA-SETUP-16", "ADA-SETUP-17", "ADA-SETUP-26", "ADA-SETUP-31",
                  "ADA-PARTNER-01")
@pytest.mark.parametrize("n,removed", [(4, 0), (3, 1), (2, 2)])
def test_partner_decks(n, removed):
    s = table(n)
    assert len(C.STARTING) == 7 and len(C.TIER1) == 10 and len(C.TIER2) == 30
    dealt = []
    for seat, p in enumerate(s["players"]):
        cards = p["deck"] + p["hand"]
        assert len(p["deck"]) == 4 and len(p["hand"]) == 4 and p["discard"] == []
        assert sorted(c for c in cards if "#" in c) == sorted(f"{c}#{seat}" for c in C.STARTING)
        tier1 = [c for c in cards if C.partner(c)["tier"] == "1"]
        assert len(tier1) == 1
        dealt += tier1
    assert len(s["unused_tier1"]) == removed
    deck = s["stacks"]["meet"]
    assert len(deck) == 32 and all(C.partner(c)["tier"] == "1" for c in deck[:2])
    assert all(C.partner(c)["tier"] == "2" for c in deck[2:])
    display = [c for c in s["displays"]["meet"] if c]
    assert len(display) == 4 and all(C.partner(c)["tier"] == "1" for c in display)
    everywhere = set(deck) | set(display) | set(dealt)
    assert not set(s["unused_tier1"]) & everywhere
    assert len(everywhere | set(s["unused_tier1"])) == 40
    for card in C.PARTNERS.values():
        assert card["tier"] in ("S", "1", "2") and card["science"] in C.SCIENCES + ("none",)
        assert isinstance(card["prestige"], int) and "effect" in card


@pytest.mark.rule("ADA-SETUP-20", "ADA-SETUP-21", "ADA-SETUP-22", "ADA-SETUP-23", "ADA-SETUP-24", "ADA-SETUP-25",
                  "ADA-SETUP-27", "ADA-SETUP-30")
def test_player_starting_pieces():
    s = table(4)
    for p in s["players"]:
        assert sorted(p["gear_supply"]) == ["add", "sub", "sub"]
        assert p["research"] == {c: 0 for c in C.COLOURS}
        assert p["city"] == "london" and p["covered"] == [True] * 12 and p["gears"] == [None] * 12
        assert p["innov"] == C.INNOV_START and p["steam"] == C.STEAM_START
        assert p["brass"] == 1 and p["book"] == 1
        assert p["store"] == [None] * C.STORE_SLOTS and p["mill"] == [None] * 9
        assert p["programs"] == {} and all(v == [] for v in p["columns"].values())
        assert p["atokens"] == {} and p["stokens"] == []
    assert s["univ"] == {} and all(not d for room in s["rooms"] for d in room)


@pytest.mark.rule("ADA-SETUP-28", "ADA-SETUP-29", "ADA-TURN-01")
def test_first_player_and_compensation():
    s = table(4, first_player=2)
    assert s["order"] == [2, 3, 0, 1] and s["flow"]["seat"] == 2
    money = {seat: s["players"][seat]["money"] for seat in range(4)}
    coal = {seat: s["players"][seat]["coal"] for seat in range(4)}
    assert (money[2], coal[2]) == (4, 1)
    assert (money[3], coal[3]) == (5, 1)
    assert (money[0], coal[0]) == (4, 2)
    assert (money[1], coal[1]) == (5, 2)
    with pytest.raises(IllegalMove) as err:
        RULES.initial_state(3, {"first_player": 3})
    assert err.value.rule_id == "ADA-SETUP-28"


@pytest.mark.rule("ADA-RESOURCE-01", "ADA-RESOURCE-03", "ADA-SETUP-21")
def test_resources_unlimited():
    from tests.games.adas_dream.helpers import G
    g = G()
    g.p(0)["money"] = 500
    g.s["workshop"][0] = [{"c": "blue", "v": 6}]
    g.s["workshop"][2] = [{"c": "green", "v": 1}]
    g.p(0)["coal"] = 1
    g.move(type="workshop", space=0, die=0, extra=True, push=0)        # W3 bonus: 2 Coal
    assert C.WORKSHOP_BONUS[2] == "coal" and g.p(0)["coal"] == 2 and g.p(0)["money"] == 500
