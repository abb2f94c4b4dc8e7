"""Facts written by earlier releases, read against what today's rules decide (record import).

Stored games are forever, and so are their records: a record exported by an earlier release
must stay checkable. Three things can make a recorded move's facts differ from what today's
rules decide for the same move, and each has its own exact, documented answer here:

1. A fact was renamed since: the game's `evolve.RENAMED` ({old name: current name}, the same
   map the fold reads stored games through) renames the recorded fact, and its public
   stand-in (`public.type`), before an exact comparison (`renamed_facts`).
2. Facts were reshaped since (not a plain rename, e.g. Ada's Dream's `Flow` before issue 18):
   the game's optional `evolve.legacy_facts(recorded, decided, state_after)` writes today's
   facts the way that release wrote them (a function of today's facts and the state after
   them, never of the record), and the comparison is exact against that.
3. A rule was fixed since: the game's `evolve.FIXES` lists each fix as data (`RuleFix`: the
   rule ID, the issue, the records release from which records are checked without it, and
   how the fix shows). A record of an earlier release is accepted at a move only where
   removing exactly the facts the fix added from today's facts gives the recorded facts; a
   fix that changes the course of the game (another outcome) is named in the refusal with
   the last move verified. Any other difference, or one in a record of a release after the
   fix, is refused as a mismatch.

Nothing here trusts the record: it is only ever compared with what today's rules decided.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

import orjson

#: The release of the record format's rules: records written since carry it as
#: `rules_release`; a record without it was written by an earlier release (1: up to and
#: including the golden store's 901149d). Bump it with every new `RuleFix`, whose
#: `release` is then the new value.
RULES_RELEASE = 2
FIRST_RELEASE = 1


@dataclass(frozen=True)
class RuleFix:
    """A rule fixed since an earlier release, as data: records of releases before `release`
    were decided without it.

    Either the fix only adds facts: `added(fact)` says whether a fact today's rules decide is
    one only the fix adds, and the fix explains a recorded move exactly when today's facts
    without those equal the recorded facts (the game goes on the same; the import accepts it).
    Or it changes what follows (`changes_course`): `matches(recorded, decided)` recognises the
    earlier release's decision at that move, and the import is refused there, naming the fix
    and the last move verified, since today's rules cannot check the rest."""

    rule: str
    issue: str
    release: int
    summary: str
    added: Callable[[Mapping[str, Any]], bool] | None = None
    matches: Callable[[list, list], bool] | None = None

    @property
    def changes_course(self) -> bool:
        return self.added is None

    def explains(self, recorded: list, decided: list) -> bool:
        if self.added is not None:
            return same_facts(recorded, [fact for fact in decided if not self.added(fact)])
        return self.matches is not None and bool(self.matches(recorded, decided))

    def describe(self) -> dict:
        return {"rule": self.rule, "issue": self.issue, "release": self.release, "summary": self.summary}


def canonical(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def same_facts(recorded: Any, decided: Any) -> bool:
    """Exactly equal (sorted keys; ``true`` is not ``1``): a forged field anywhere differs."""
    return canonical(recorded) == canonical(decided)


def renamed_facts(renamed: Mapping[str, str], facts: list) -> list:
    """`facts` under today's names: the fact's type and its public stand-in's, nothing else."""
    if not renamed:
        return facts
    out = []
    for fact in facts:
        if not isinstance(fact, dict):
            out.append(fact)
            continue
        fact = dict(fact)
        if fact.get("type") in renamed:
            fact["type"] = renamed[fact["type"]]
        public = fact.get("public")
        if isinstance(public, dict) and public.get("type") in renamed:
            fact["public"] = {**public, "type": renamed[public["type"]]}
        out.append(fact)
    return out


@dataclass(frozen=True)
class Verdict:
    """How a recorded move's facts compare: `ok`, and the fix that explains a difference (or None;
    with `ok` False, a fix that changed the course of the game: nothing after it can be checked)."""

    ok: bool
    fix: RuleFix | None = None


def check_facts(rules: Any, recorded: list, decided: list, state_after: Any, release: int) -> Verdict:
    """Whether `recorded` (a record of `release`) are the facts `decided` by today's rules, read
    through the game's renames, reshapes and documented fixes (module docstring)."""
    recorded = renamed_facts(getattr(rules, "renamed_facts", {}), recorded)
    legacy = getattr(rules, "legacy_facts", None)
    if legacy is not None:
        decided = legacy(recorded, decided, state_after)
    if same_facts(recorded, decided):
        return Verdict(True)
    for fix in getattr(rules, "rule_fixes", ()):
        if release < fix.release and fix.explains(recorded, decided):
            return Verdict(not fix.changes_course, fix)
    return Verdict(False)
