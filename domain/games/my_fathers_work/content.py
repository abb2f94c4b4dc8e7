"""Loading and validating the content pack (TOML), once at import.

Every record is checked against the schemas of the catalog (section 3); a bad record raises
`ContentError` naming the record and the field. Lookups used by the rules are precomputed here.
"""

from __future__ import annotations

from domain.engine import ContentError, load_toml, require, require_count, require_one_of, require_unique_ids

PKG = "domain.games.my_fathers_work"

INGREDIENTS = ("chemical", "animal", "gear", "body")
KNOWLEDGE = ("chemistry", "biology", "engineering", "occult")
RESOURCES = INGREDIENTS + KNOWLEDGE
LEVELS = ("A", "B", "C", "D")
TRACKS = ("engineering", "chemistry", "biology", "occult")
PIECES = ("self", "spouse", "servant1", "servant2", "caretaker1", "caretaker2")
PIECE_TYPE = {"self": "self", "spouse": "servant", "servant1": "servant", "servant2": "servant",
              "caretaker1": "caretaker", "caretaker2": "caretaker"}
PREREQS = {"A": {}, "B": {"A": 1}, "C": {"A": 1, "B": 2}, "D": {"A": 1, "B": 2, "C": 3}}
CATEGORIES = ("ingredient", "knowledge", "laborers_union", "builders_office", "church", "town_hall", "special")
HOOKS = ("start_of_generation", "start_of_round", "end_of_round", "end_of_generation", "end_of_game", "consult")
TARGETS = ("all", "each", "placer", "start_player", "highest_score", "lowest_score", "most_creepy",
           "least_creepy", "most_upgrades")
ABILITY_KINDS = ("start_of_generation", "end_of_generation", "start_of_round", "passive", "free_action",
                 "estate_location", "end_game_score", "on_place")
SCORE_PER = ("journal_level", "stored", "upgrade", "maxed_journal", "flat")
PENALTY_KINDS = ("lose_piece", "upgrade", "maladjustment", "creepy")
MODIFIABLE_RULES = {"MFW-ROUND-04": "money", "MFW-PLACE-07": "money"}


# ----------------------------------------------------------------------------- effects

def check_effect(eff, where: str, *, allow_global: bool = False) -> None:
    """One Effect table (catalog 3.0); `allow_global` adds the scenario-only effects."""
    if not isinstance(eff, dict):
        raise ContentError(f"{where}: an effect must be a table, got {eff!r}")
    if "gain" in eff:
        kind = require_one_of(eff, "gain", ("ingredient", "knowledge", "money", "vp", "resource"), where)
        if kind == "ingredient":
            require_one_of(eff, "kind", INGREDIENTS, where)
        if kind == "knowledge":
            require_one_of(eff, "kind", KNOWLEDGE + ("any",), where)
        if kind != "resource":
            require(eff, "n", int, where)
    elif "pay" in eff:
        kind = require_one_of(eff, "pay", ("money", "ingredient", "knowledge"), where)
        if kind != "money":
            require_one_of(eff, "kind", RESOURCES, where)
        if require(eff, "n", int, where) < 1:
            raise ContentError(f"{where}: field 'n' of a payment must be positive")
    elif "move" in eff:
        track = require_one_of(eff, "move", ("creepy", "insanity", "mob", "suspicion"), where)
        if track == "suspicion" and not allow_global:
            raise ContentError(f"{where}: only scenario events move the Suspicion marker (MFW-AMB-46)")
        require(eff, "steps", int, where)
    elif "retrieve" in eff:
        require_one_of(eff, "retrieve", ("servant", "caretaker"), where)
    elif "draw" in eff:
        kind = require_one_of(eff, "draw", ("experiment", "compulsion", "maladjustment"), where)
        if kind == "experiment":
            require_one_of(eff, "deck", ("choice", "A", "B", "C"), where)
        require(eff, "n", int, where)
    elif "search" in eff:
        require_one_of(eff, "search", ("experiment",), where)
    elif "upgrade" in eff:
        require_one_of(eff, "upgrade", ("buy", "vanity", "discard"), where)
    elif "consult" in eff:
        require(eff, "consult", str, where)
    elif "visit" in eff:  # resolve one Town Location once, without a piece (free actions; MFW-AMB-12, MFW-AMB-42)
        require(eff, "visit", str, where)
    elif "lose_piece" in eff:
        require_one_of(eff, "lose_piece", ("servant", "spouse", "servant_or_spouse"), where)
    elif "choice" in eff:
        options = require(eff, "choice", list, where)
        if len(options) < 2:
            raise ContentError(f"{where}: a choice needs at least 2 options")
        for i, option in enumerate(options):
            if not isinstance(option, list):
                raise ContentError(f"{where}: choice option {i} must be a list of effects")
            for j, sub in enumerate(option):
                check_effect(sub, f"{where}.choice[{i}][{j}]", allow_global=allow_global)
    elif allow_global and set(eff) & {"page", "add_location", "remove_location", "replace_location",
                                       "set_suspicion", "set_mob", "give_token", "modifier"}:
        if "modifier" in eff:
            mod = require(eff, "modifier", dict, where)
            rule = require_one_of(mod, "rule", tuple(MODIFIABLE_RULES), where)
            params = require(mod, "params", dict, where)
            require(params, MODIFIABLE_RULES[rule], int, where)
    else:
        raise ContentError(f"{where}: unknown effect {eff!r}")


def check_effects(effects, where: str, **kw) -> list:
    if not isinstance(effects, list):
        raise ContentError(f"{where}: expected a list of effects, got {effects!r}")
    for i, eff in enumerate(effects):
        check_effect(eff, f"{where}[{i}]", **kw)
    return effects


def check_ability(ab: dict, where: str) -> None:
    kind = require_one_of(ab, "kind", ABILITY_KINDS, where)
    if kind in ("start_of_generation", "end_of_generation", "start_of_round"):
        check_effects(require(ab, "effects", list, where), f"{where}.effects")
    elif kind == "passive":
        credit = require(ab, "prerequisite_credit", dict, where)
        require_one_of(credit, "level", ("A", "B", "C"), where)
        require(credit, "n", int, where)
    elif kind == "free_action":
        for item in require(ab, "cost", list, where):
            if "pay" not in item and "move" not in item:
                raise ContentError(f"{where}: free-action cost items are payments or penalties")
        check_effects(ab["cost"], f"{where}.cost")
        check_effects(require(ab, "effects", list, where), f"{where}.effects")
        require(ab, "uses", int, where)
    elif kind == "estate_location":
        require(ab, "name", str, where)
        require_one_of(ab, "pieces", ("any",), where)
        require_one_of(ab, "servants_required", (1, 2), where)
        require(ab, "servant_cost", bool, where)
        check_effects(require(ab, "effects", list, where), f"{where}.effects")
    elif kind == "end_game_score":
        check_score(require(ab, "score", dict, where), where)
    elif kind == "on_place":  # a Town Location id or category, a piece type, effects once per placement
        require(ab, "location", str, where)
        require_one_of(ab, "piece", ("any", "self", "servant"), where)
        check_effects(require(ab, "effects", list, where), f"{where}.effects")


def check_score(score: dict, where: str) -> None:
    require_one_of(score, "per", SCORE_PER, where)
    require(score, "vp", int, where)


# ----------------------------------------------------------------------------- loaders

def _experiments():
    data = load_toml(PKG, "experiments.toml").get("experiment", [])
    require_unique_ids(data, "experiments.toml")
    for rec in data:
        check_experiment(rec, f"experiments.toml {rec['id']}")
    counts = {lv: sum(1 for r in data if r["level"] == lv) for lv in LEVELS}
    for lv, n in zip(LEVELS, (28, 24, 32, 8)):
        if counts[lv] != n:
            raise ContentError(f"experiments.toml: expected {n} level-{lv} cards, found {counts[lv]}")
    return {r["id"]: r for r in data}


def check_experiment(rec: dict, where: str) -> dict:
    """One Experiment card record (catalog 3.2, MFW-EXPERIMENT-23, MFW-EXPERIMENT-24)."""
    require(rec, "title", str, where)
    level = require_one_of(rec, "level", LEVELS, where)
    require_one_of(rec, "type", TRACKS, where)
    if require(rec, "prerequisites", dict, where) != PREREQS[level]:
        raise ContentError(f"{where}: field 'prerequisites' must be {PREREQS[level]} for level {level}")
    ci = require(rec, "cost_ingredients", dict, where)
    ck = require(rec, "cost_knowledge", dict, where)
    for k, v in ci.items():
        if k not in INGREDIENTS or not isinstance(v, int) or v < 1:
            raise ContentError(f"{where}: bad cost_ingredients entry {k}={v!r}")
    for k, v in ck.items():
        if k not in KNOWLEDGE or not isinstance(v, int) or v < 1:
            raise ContentError(f"{where}: bad cost_knowledge entry {k}={v!r}")
    rewards = check_effects(require(rec, "rewards", list, where), f"{where}.rewards")
    require(rec, "consult_app", str, where)
    if level == "A":  # MFW-EXPERIMENT-23
        if ck or not ci:
            raise ContentError(f"{where}: an A Experiment costs Ingredients only (MFW-EXPERIMENT-23)")
        if not any(_gives_knowledge(e) for e in rewards):
            raise ContentError(f"{where}: an A Experiment must reward Knowledge (MFW-EXPERIMENT-23)")
    elif not ci or not ck:  # MFW-EXPERIMENT-24
        raise ContentError(f"{where}: a {level} Experiment costs an Ingredient and a Knowledge (MFW-EXPERIMENT-24)")
    return rec


def _gives_knowledge(eff) -> bool:
    if eff.get("gain") == "knowledge":
        return True
    return "choice" in eff and all(any(_gives_knowledge(e) for e in opt) for opt in eff["choice"])


def _upgrades():
    raw = load_toml(PKG, "upgrades.toml")
    ups = raw.get("upgrade", [])
    require_unique_ids(ups, "upgrades.toml upgrade")
    require_count(ups, 58, "upgrades.toml upgrade")
    for rec in ups:
        where = f"upgrades.toml {rec['id']}"
        require(rec, "name", str, where)
        require_one_of(rec, "set", ("gen12", "gen3", "storage_shed"), where)
        require(rec, "price", int, where)
        pen = check_effects(require(rec, "penalties", list, where), f"{where}.penalties")
        for p in pen:
            if p.get("move") not in ("insanity", "creepy") or p.get("steps", 0) < 1:
                raise ContentError(f"{where}: penalties may only move Insanity/Creepy forward")
        if require(rec, "cracked_border", bool, where) != bool(pen):
            raise ContentError(f"{where}: cracked_border must be true exactly when penalties are listed")
        for i, ab in enumerate(require(rec, "abilities", list, where)):
            check_ability(ab, f"{where}.abilities[{i}]")
        for ab in rec["abilities"]:
            if ab["kind"] == "start_of_generation" and rec["set"] != "storage_shed":
                if any(e.get("gain") == "resource" or "choice" in e for e in ab["effects"]):
                    raise ContentError(f"{where}: only the Storage Shed offers a resource choice at start of Generation")
    van = raw.get("vanity", [])
    require_unique_ids(van, "upgrades.toml vanity")
    require_count(van, 10, "upgrades.toml vanity")
    names: dict = {}
    for rec in van:
        where = f"upgrades.toml {rec['id']}"
        names[require(rec, "name", str, where)] = names.get(rec["name"], 0) + 1
        check_score(require(rec, "score", dict, where), where)
        check_effects(require(rec, "penalties", list, where), f"{where}.penalties")
    if any(n != 2 for n in names.values()) or len(names) != 5:
        raise ContentError(f"upgrades.toml vanity: need 5 names with exactly 2 copies each, got {names}")
    return {r["id"]: r for r in ups}, {r["id"]: r for r in van}


def _cards():
    raw = load_toml(PKG, "cards.toml")
    comps = raw.get("compulsion", [])
    require_unique_ids(comps, "cards.toml compulsion")
    require_count(comps, 24, "cards.toml compulsion")
    for rec in comps:
        where = f"cards.toml {rec['id']}"
        require(rec, "text", str, where)
        cond = require(rec, "condition", dict, where)
        on = require_one_of(cond, "on", ("gain", "complete", "build", "place", "record"), where)
        require(cond, "n", int, where)
        if on == "gain":
            require_one_of(cond, "kind", RESOURCES + ("money",), where)
        if on == "complete":
            require_one_of(cond, "level", LEVELS + ("any",), where)
        if on == "place":
            require_one_of(cond, "category", CATEGORIES, where)
        if require(rec, "vp", int, where) < 1:
            raise ContentError(f"{where}: field 'vp' must be positive")
    mals = raw.get("maladjustment", [])
    require_unique_ids(mals, "cards.toml maladjustment")
    require_count(mals, 12, "cards.toml maladjustment")
    for rec in mals:
        where = f"cards.toml {rec['id']}"
        require(rec, "text", str, where)
        eff = require(rec, "effect", dict, where)
        if "modifier" in eff:
            mod = require_one_of(eff, "modifier", ("extra_cost", "income"), where)
            if require(eff, "money", int, where) * (1 if mod == "extra_cost" else -1) <= 0:
                raise ContentError(f"{where}: a Maladjustment must be harmful")
        else:
            require_one_of(eff, "trigger", ("start_of_round",), where)
            check_effects(require(eff, "effects", list, where), f"{where}.effects")
    return {r["id"]: r for r in comps}, {r["id"]: r for r in mals}


def _board():
    raw = load_toml(PKG, "board.toml")
    estate = require(raw, "estate", dict, "board.toml")
    costs = require(estate, "plot_expansion_cost", list, "board.toml [estate]")
    if len(costs) != 8 or costs[:3] != [0, 0, 0]:
        raise ContentError("board.toml [estate]: plot_expansion_cost needs 8 entries, the first 3 zero")
    journal = require(raw, "journal", dict, "board.toml")
    for track in TRACKS:
        rec = require(journal, track, dict, "board.toml [journal]")
        if len(require(rec, "cost", list, f"board.toml journal.{track}")) != 3:
            raise ContentError(f"board.toml journal.{track}: cost needs 3 levels")
        pens = require(rec, "start_of_generation_penalty", list, f"board.toml journal.{track}")
        if len(pens) != 4:
            raise ContentError(f"board.toml journal.{track}: start_of_generation_penalty needs 4 entries (levels 0..3)")
        for i, p in enumerate(pens):
            check_effects(p, f"board.toml journal.{track}.start_of_generation_penalty[{i}]")
    ins = require(raw, "insanity_track", dict, "board.toml")
    for side in ("gen12", "gen3"):
        spaces = require(require(ins, side, dict, "board.toml insanity_track"), "spaces", list, f"insanity_track.{side}")
        if not spaces:
            raise ContentError(f"board.toml insanity_track.{side}: no spaces")
        for i, sp in enumerate(spaces):
            for part in ("above", "below"):
                effs = check_effects(require(sp, part, list, f"insanity_track.{side}[{i}]"), f"insanity_track.{side}[{i}].{part}")
                for e in effs:
                    if e.get("draw") == "maladjustment" and side != "gen3":
                        raise ContentError(f"insanity_track.{side}[{i}]: Maladjustment icons only on the gen3 side")
    mob = require(raw, "mob_track", dict, "board.toml")
    require(mob, "length", int, "board.toml [mob_track]")
    return raw


def _town():
    locs = load_toml(PKG, "town.toml").get("location", [])
    require_unique_ids(locs, "town.toml")
    for rec in locs:
        where = f"town.toml {rec['id']}"
        check_location(rec, where)
    pages = {page for rec in locs for page in rec["pages"]}
    for page in sorted(pages):
        unions = [r["id"] for r in locs if page in r["pages"] and r["category"] == "laborers_union"]
        if len(unions) != 1:
            raise ContentError(f"town.toml: page {page!r} needs exactly one Laborer's Union, has {unions}")
    return {r["id"]: r for r in locs}


def check_location(rec: dict, where: str) -> None:
    require(rec, "name", str, where)
    require(rec, "pages", list, where)
    cat = require_one_of(rec, "category", CATEGORIES, where)
    require(rec, "suspicious", bool, where)
    pens = check_effects(require(rec, "penalties", list, where), f"{where}.penalties")
    if pens and not rec["suspicious"]:
        raise ContentError(f"{where}: penalties are listed but the Location is not suspicious")
    for p in pens:
        if "move" not in p or (p["move"] in ("creepy", "insanity") and p["steps"] < 1) or (p["move"] == "mob" and p["steps"] > -1):
            raise ContentError(f"{where}: penalties must move creepy/insanity forward or the mob left")
    for c in check_effects(require(rec, "cost_per_use", list, where), f"{where}.cost_per_use"):
        if "pay" not in c:
            raise ContentError(f"{where}: cost_per_use items must be payments")
    check_effects(require(rec, "reward_per_use", list, where), f"{where}.reward_per_use")
    require(rec, "no_self_bonus", bool, where)
    require(rec, "repeatable", bool, where)
    require(rec, "consult_app", str, where)
    for t in require(rec, "piece_triggers", list, where):
        require_one_of(t, "piece", ("self", "servant", "spouse"), where)
        check_effects(require(t, "effects", list, where), f"{where}.piece_triggers")
    if cat == "laborers_union" and {"retrieve": "servant"} not in rec["reward_per_use"]:
        raise ContentError(f"{where}: a Laborer's Union always gives a Servant-type piece (MFW-TOWN-14)")


def _scenarios(locations: dict):
    index = load_toml(PKG, "scenarios.toml")
    out = {}
    for filename in require(index, "files", list, "scenarios.toml"):
        raw = load_toml(PKG, filename)
        scn = require(raw, "scenario", dict, filename)
        out[require(scn, "id", str, filename)] = check_scenario(scn, filename, locations)
    default = require(index, "default", str, "scenarios.toml")
    if default not in out:
        raise ContentError(f"scenarios.toml: default scenario {default!r} is not loaded")
    return out, default


def check_scenario(scn: dict, where: str, locations: dict) -> dict:
    require(scn, "title", str, where)
    players = require(scn, "players", list, where)
    if len(players) != 2 or not 2 <= players[0] <= players[1] <= 4:
        raise ContentError(f"{where}: players must be [min, max] within 2..4")
    require(scn, "start_page", str, where)
    sp = require(scn, "start_player", (str, int), where)
    if isinstance(sp, str) and sp != "random":
        raise ContentError(f"{where}: start_player is 'random' or a seat index")
    gens = require(scn, "generation", list, where)
    require_count(gens, 3, f"{where} generation")
    for i, g in enumerate(gens):
        require(g, "mob_start", int, f"{where} generation[{i}]")
        require(g, "suspicion_start", int, f"{where} generation[{i}]")
        require(g, "page", str, f"{where} generation[{i}]")
        if g["mob_start"] > g["suspicion_start"]:
            raise ContentError(f"{where} generation[{i}]: mob_start must not exceed suspicion_start")
    if gens[0]["mob_start"] != gens[0]["suspicion_start"]:
        raise ContentError(f"{where}: Generation I mob_start must equal suspicion_start (MFW-SETUP-03)")
    tokens = scn.get("token", [])
    require_unique_ids(tokens, f"{where} token") if tokens else None
    for t in tokens:
        require(t, "name", str, f"{where} token {t['id']}")
        check_ability(require(t, "ability", dict, f"{where} token {t['id']}"), f"{where} token {t['id']}")
    events = scn.get("event", [])
    require_unique_ids(events, f"{where} event") if events else None
    token_ids = {t["id"] for t in tokens}
    for ev in events:
        w = f"{where} event {ev['id']}"
        require_one_of(ev, "hook", HOOKS, w)
        when = require(ev, "when", dict, w)
        for k in when:
            if k not in ("generation", "round"):
                raise ContentError(f"{w}: 'when' accepts generation and round only, got {k!r}")
        require_one_of(ev, "targets", TARGETS, w)
        require(ev, "secret", bool, w)
        if ev["secret"] and ev.get("vote"):  # MFW-HIDDEN-13: a vote is public, so it would name the secret event
            raise ContentError(f"{w}: a secret event cannot hold a vote")
        if not isinstance(ev.get("vote_secret", False), bool) or (ev.get("vote_secret") and not ev.get("vote")):
            raise ContentError(f"{w}: 'vote_secret' is a bool and needs a 'vote'")
        require(ev, "message", str, w)
        effs = check_effects(require(ev, "effects", list, w), f"{w}.effects", allow_global=True)
        for key in ("choice", "vote"):
            for i, opt in enumerate(ev.get(key, [])):
                require(opt, "label", str, f"{w}.{key}[{i}]")
                effs = effs + check_effects(require(opt, "effects", list, f"{w}.{key}[{i}]"), f"{w}.{key}[{i}]", allow_global=True)
        for e in effs:
            if "add_location" in e and e["add_location"] not in locations:
                raise ContentError(f"{w}: unknown location {e['add_location']!r}")
            if "replace_location" in e and not {e["replace_location"].get("old"), e["replace_location"].get("new")} <= set(locations):
                raise ContentError(f"{w}: replace_location names an unknown location")
            if "give_token" in e and e["give_token"] not in token_ids:
                raise ContentError(f"{w}: unknown token {e['give_token']!r}")
    return scn


# ----------------------------------------------------------------------------- the pack

EXPERIMENTS = _experiments()
UPGRADES, VANITY = _upgrades()
COMPULSIONS, MALADJUSTMENTS = _cards()
BOARD = _board()
LOCATIONS = _town()
SCENARIOS, DEFAULT_SCENARIO = _scenarios(LOCATIONS)

def _check_visits() -> None:
    """A `visit` effect (an Upgrade's or token's free action) must name a known Town Location."""
    for tid, rec in list(UPGRADES.items()):
        for ab in rec.get("abilities", []):
            for e in ab.get("effects", []):
                if "visit" in e and e["visit"] not in LOCATIONS:
                    raise ContentError(f"upgrades.toml {tid}: visit names an unknown Location {e['visit']!r}")


_check_visits()
EXP_LEVEL_IDS = {lv: sorted(i for i, r in EXPERIMENTS.items() if r["level"] == lv) for lv in LEVELS}
VANITY_NAMES = sorted({r["name"] for r in VANITY.values()})
ESTATE_COSTS = BOARD["estate"]["plot_expansion_cost"]
ESTATE_LOCATIONS = {r["id"]: r for r in BOARD["estate"]["locations"]}
JOURNAL = BOARD["journal"]
INSANITY = {side: BOARD["insanity_track"][side]["spaces"] for side in ("gen12", "gen3")}
MOB_LENGTH = BOARD["mob_track"]["length"]
TOKENS = {t["id"]: t for s in SCENARIOS.values() for t in s.get("token", [])}


def tile(tile_id: str) -> dict:
    """An Estate tile record: an Upgrade or a Vanity tile."""
    return UPGRADES.get(tile_id) or VANITY[tile_id]


def location(loc_id: str) -> dict:
    return LOCATIONS[loc_id]


SECRET_EVENTS = frozenset(ev["id"] for s in SCENARIOS.values() for ev in s.get("event", []) if ev["secret"])


def scenario_secret(event_id: str) -> bool:
    """MFW-HIDDEN-13: True for a scenario event whose message is addressed in secret."""
    return event_id in SECRET_EVENTS
