"""Facts of earlier releases read against today's (domain/engine/legacy.py, record import): renames and
reshapes are exact, a documented rule fix is allowed for only in records of a release before it."""

from __future__ import annotations

from types import SimpleNamespace

from domain.engine.legacy import FIRST_RELEASE, RULES_RELEASE, RuleFix, check_facts, renamed_facts

RENAMED = {"Asked": "PendingPushed"}
FIX = RuleFix(rule="X-01", issue="1.1", release=RULES_RELEASE, summary="notes a var",
              added=lambda fact: fact.get("type") == "VarSet")
ENDS = RuleFix(rule="X-02", issue="1.2", release=RULES_RELEASE, summary="no early end",
               matches=lambda recorded, decided: recorded[-1:] == [{"type": "Ended"}] and decided[-1:] != recorded[-1:])
RULES = SimpleNamespace(renamed_facts=RENAMED, rule_fixes=(FIX, ENDS))
TODAY = [{"type": "PendingPushed", "pending": {"k": 1}, "private_to": [], "public": {"type": "PendingPushed"}}]


def test_a_renamed_fact_and_its_public_stand_in_read_under_todays_name():
    old = [{"type": "Asked", "pending": {"k": 1}, "private_to": [], "public": {"type": "Asked"}}]
    assert renamed_facts(RENAMED, old) == TODAY
    assert check_facts(RULES, old, TODAY, None, FIRST_RELEASE).ok


def test_a_forged_field_in_an_old_fact_is_a_mismatch():
    for forged in ({"forged": True}, {"pending": {"k": 2}}, {"public": {"type": "Asked", "x": 1}}):
        old = [{"type": "Asked", "pending": {"k": 1}, "private_to": [], "public": {"type": "Asked"}, **forged}]
        assert not check_facts(RULES, old, TODAY, None, FIRST_RELEASE).ok, forged


def test_a_fix_explains_exactly_the_facts_it_added_and_only_for_an_earlier_release():
    decided = [{"type": "A"}, {"type": "VarSet", "v": 1}, {"type": "B"}]
    verdict = check_facts(RULES, [{"type": "A"}, {"type": "B"}], decided, None, FIRST_RELEASE)
    assert verdict.ok and verdict.fix is FIX
    assert not check_facts(RULES, [{"type": "A"}, {"type": "B"}], decided, None, RULES_RELEASE).ok
    assert not check_facts(RULES, [{"type": "A"}, {"type": "C"}], decided, None, FIRST_RELEASE).ok
    assert not check_facts(RULES, [{"type": "B"}, {"type": "A"}], decided, None, FIRST_RELEASE).ok


def test_a_fix_that_changes_the_course_is_named_but_never_accepted():
    verdict = check_facts(RULES, [{"type": "A"}, {"type": "Ended"}], [{"type": "A"}, {"type": "Go"}], None,
                          FIRST_RELEASE)
    assert not verdict.ok and verdict.fix is ENDS


def test_a_game_reshape_writes_todays_facts_as_the_old_release_did():
    def legacy(recorded, decided, state_after):
        return [{"type": "Old", "n": state_after["n"]}] if recorded[:1] == [{"type": "Old", "n": 3}] else decided
    rules = SimpleNamespace(renamed_facts={}, rule_fixes=(), legacy_facts=legacy)
    assert check_facts(rules, [{"type": "Old", "n": 3}], [{"type": "New"}], {"n": 3}, FIRST_RELEASE).ok
    assert not check_facts(rules, [{"type": "Old", "n": 3, "x": 0}], [{"type": "New"}], {"n": 3}, FIRST_RELEASE).ok
