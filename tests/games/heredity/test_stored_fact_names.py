"""Stored games are forever: facts recorded before the template's names still fold (issue 18)."""

from domain.engine import copy_state, fold
from domain.games.heredity import RULES

from .helpers import at, game, run_ops


def test_old_pending_fact_names_fold_like_the_new_ones():
    st = at(game(), maeve="101:o1")
    st, facts = run_ops(st, "DAMAGE 1 maeve")
    assert [f["type"] for f in facts if f["type"].startswith("Pending")] == ["PendingPushed"]
    old = [dict(f, type="Pending") if f["type"] == "PendingPushed" else f for f in facts]
    before = at(game(), maeve="101:o1")
    assert fold(RULES.evolve, copy_state(before), old) == fold(RULES.evolve, copy_state(before), facts)
    cleared = fold(RULES.evolve, copy_state(st), [{"type": "PendingCleared", "kind": "damage_slot", "choice": "3.e"}])
    assert cleared["pending"] is None
