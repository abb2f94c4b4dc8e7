"""Hidden information of the four real games never reaches a viewer who may not see it.

For each game and player count a seeded random game is played over HTTP. Right after setup,
after moves whose facts hide something (secret commitments, draws, deals, shuffles) and at
a few other points, EVERY read endpoint is fetched as a spectator, as the referee and as
each seat: the game, the listing, legal moves, events, replay at several steps, moves-log,
history, scores, the game's analytics, the SSE stream (caught up, ``follow=false``), and
the game type's analytics and scoreboard. The POST /moves answers are checked for the mover,
and move descriptions (one text for everybody) must not name a card only one seat may see.
Once, the referee undoes a move, and the sweep runs again (undone facts stay in the log).

The oracle is the engine's own data, read in-process (never the game's `view`, which is
what is being checked):

- every stored fact with ``private_to`` that excludes the viewer: its secret parts (lists
  and dicts that its public version does not show) must not appear in what the viewer gets;
- the live state (or, for a replay step, the state at that step): the other seats' hands
  and secret holdings, every deck/stack order, secret commitments and pending choices
  (per game, from the catalogs' "Hidden information" sections);
- the seed and every token hash never appear anywhere, even after the end; another seat's
  token never appears either.

Secrets are compared structurally (a list of card ids in order, a hand as a list, a dict
record), never as bare small values; a single card id counts only when the state holds it in
hidden places alone and no fact the viewer may see named it, so a card that is public
elsewhere is no false alarm.
Once the game is finished everybody sees everything (except the seed and token hashes).
"""

from __future__ import annotations

import random
import uuid

import orjson
import pytest

from domain.engine import fold, get_rules, visible_fact
from domain.engine.facts import PRIVATE_KEY, PUBLIC_KEY
from domain.games import load_all
from domain.service import hash_token
from tests.support.api_client import TestGame, bearer

GAMES = ("my_fathers_work", "abomination", "adas_dream", "heredity")
load_all()
CASES = [pytest.param(name, players, id=f"{name}-{players}p")
         for name in GAMES
         for players in range(get_rules(name).meta.min_players, get_rules(name).meta.max_players + 1)]

SEED_BASE = 7_345_678_901_234_000  # a large seed: its digits cannot appear by chance
MAX_MOVES = 400          # past this the game is left unfinished (the runtime budget)
MAX_CHECKS = 3           # full sweeps while the game runs (besides setup)
#: Options varied over the cases, so option-dependent secrets are swept too.
OPTIONS = {("my_fathers_work", 2): {"choose_masterwork": True}, ("my_fathers_work", 3): {"scenario": "scn-parish"},
           ("abomination", 3): {"manualAnnounce": True}, ("abomination", 2): {"firstTwoPlayerGame": True}}
UNDO_AT = 12            # the referee undoes this move once
MIN_SECRET_BYTES = 12    # shorter encodings are too likely to match by chance


def encoded(value) -> bytes:
    return orjson.dumps(value)


def secret_value(value) -> bytes | None:
    """The encoding of `value` if it is a structure distinctive enough to be searched for."""
    if isinstance(value, list):
        if sum(1 for item in value if item is not None) < 2:
            return None
    elif not isinstance(value, dict) or len(value) < 1:
        return None
    data = encoded(value)
    return data if len(data) >= MIN_SECRET_BYTES else None


# --------------------------------------------------------------------------- oracle


def fact_secrets(record: dict) -> list[tuple[str, bytes, object]]:
    """The parts of a private fact its public version does not show: (label, encoding, value)."""
    public = record.get(PUBLIC_KEY) or {}
    out = [(f"fact {record['type']}", encoded(record), record)]
    if not record[PRIVATE_KEY]:
        # Hidden from everyone (a shuffled order): it becomes public card by card as cards are
        # drawn, so only the record itself is searched for; the state oracle has the live order.
        return out
    for key, value in record.items():
        if key in (PRIVATE_KEY, PUBLIC_KEY, "type", "random"):
            continue
        if public.get(key) == value:
            continue
        if isinstance(value, dict):  # e.g. {"set": {"deck": [...], "hand": [...]}}: each part too
            for sub, inner in value.items():
                if isinstance(public.get(key), dict) and public[key].get(sub) == inner:
                    continue
                data = secret_value(inner)
                if data:
                    out.append((f"fact {record['type']}.{key}.{sub}", data, inner))
        data = secret_value(value)
        if data:
            out.append((f"fact {record['type']}.{key}", data, value))
    return out


def hidden_from(record: dict, viewer) -> bool:
    private_to = record.get(PRIVATE_KEY)
    return private_to is not None and viewer not in private_to


def ordered(value) -> list:
    """A deck/hand as stored (list), or the values of a dict of lists."""
    return value if isinstance(value, list) else []


def state_hidden(game: str, state: dict, viewer) -> list[tuple[str, object]]:
    """What `viewer` (a seat or "spectator") may not see in `state`, per the catalogs."""
    found: list[tuple[str, object]] = []
    others = lambda seat: seat != viewer  # noqa: E731
    if game == "my_fathers_work":
        for name, deck in state["decks"].items():                      # MFW-HIDDEN-03
            if name not in ("comp_discard", "mal_discard"):
                found.append((f"deck {name}", deck))
        for seat, pl in enumerate(state["players"]):
            if others(seat):
                found += [(f"seat {seat} hand", pl["hand"]),           # MFW-HIDDEN-01
                          (f"seat {seat} ea", pl["ea"]),               # MFW-HIDDEN-05/16
                          (f"seat {seat} comps", pl["comps"])]         # MFW-HIDDEN-02
        for key, commit in state.get("commits", {}).items():           # MFW-HIDDEN-12
            if others(int(key)):
                found.append((f"commit of seat {key}", commit))
                if isinstance(commit, (str, int)):  # a bare option: searched as the "seat": option pair
                    found.append((f"commit pair of seat {key}", {key: commit}))
        for message in state.get("messages", []):                      # MFW-HIDDEN-13
            if message.get("to") is not None and others(message["to"]):
                found.append(("secret message", message))
        pending = state.get("pending") or {}
        if pending.get("secret") and others(pending.get("seat")):      # MFW-HIDDEN-16
            found.append(("secret pending", pending))
    elif game == "abomination":
        for name, deck in state["decks"].items():                      # H-02, H-05, H-06
            found.append((f"deck {name}", deck[1:] if name == "morgue" else deck))
        found.append(("hospital pile", state["displays"]["hospital"][1:]))   # H-04
        found.append(("removed objectives", state.get("removedObjectives")))  # H-09
        for held in state.get("held", []):                             # H-01
            if others(held.get("holder")):
                found.append(("held encounter", held))
        for seat, p in enumerate(state["p"]):                          # H-08
            if others(seat):
                for kind, cards in p["hands"].items():
                    found.append((f"seat {seat} {kind} hand", cards))
    elif game == "adas_dream":
        for seat, p in enumerate(state["players"]):
            found.append((f"seat {seat} partner deck", p["deck"]))     # 5.2: hidden from everyone
            if others(seat):
                found.append((f"seat {seat} hand", p["hand"]))
        for name, stack in state["stacks"].items():                    # 5.2
            found.append((f"stack {name}", stack))
        found.append(("unused tier-1", state.get("unused_tier1")))
    elif game == "heredity":
        deck = state["karma"]["deck"]                                  # HER-HIDDEN-08
        if deck != sorted(deck):  # the composition is public, sorted
            found.append(("karma order", deck))
        found += heredity_unseen_texts(state)                          # HER-HIDDEN-01..07
    return found


def heredity_unseen_texts(state: dict) -> list[tuple[str, object]]:
    """The texts (narratives, instructions...) of card faces nobody has seen yet: cards still
    in the Adventure or Secrets deck, the other face of cards in play (HER-HIDDEN-01..07)."""
    from domain.games.heredity.state import C as content_of, face_side
    content = content_of(state)
    seen_texts: set[str] = set()
    unseen: dict[str, str] = {}
    for number in content.cards:
        rec = content.card(number)
        shown = set(state["revealed"].get(str(number), []))
        if str(number) in state["cards"] and state["cards"][str(number)].get("zone") not in ("deck", None):
            shown.add(face_side(state, number))
        for side in ("front", "back"):
            texts = {t for t in strings_in(rec.get(side) or {}) if len(t) >= 25}
            if side in shown:
                seen_texts |= texts
            else:
                unseen.update({t: f"card {number} {side}" for t in texts})
    return [(f"unseen text of {where}", text) for text, where in sorted(unseen.items()) if text not in seen_texts]


def hidden_items(found: list[tuple[str, object]]) -> set:
    """The cards (ids) in hidden places of a state."""
    return {item for _, value in found if isinstance(value, list) for item in value
            if isinstance(item, (str, int))}


def card_like(value) -> bool:
    return isinstance(value, str) and len(value) >= 4 and any(c.isdigit() for c in value)


def masked(tree, hidden_ids: set[int]):
    """`tree` without the objects of `hidden_ids` (compared by identity)."""
    if id(tree) in hidden_ids:
        return None
    if isinstance(tree, dict):
        return {k: masked(v, hidden_ids) for k, v in tree.items()}
    if isinstance(tree, list):
        return [masked(v, hidden_ids) for v in tree]
    return tree


def hidden_cards(state: dict, found: list[tuple[str, object]]) -> list[tuple[str, bytes]]:
    """Single card ids that are only in hidden places of `state` (another seat's one-card
    hand, the top of a deck): their JSON strings must not appear either."""
    cards = {x for _, value in found if not isinstance(value, str) for x in strings_in(value) if card_like(x)}
    public = strings_in(masked(state, {id(value) for _, value in found}))
    return [(f"hidden card {card}", encoded(card)) for card in sorted(cards - public)]


def state_secrets(game: str, found: list[tuple[str, object]]) -> list[tuple[str, bytes]]:
    out = []
    for label, value in found:
        if "deck" in label or label.startswith(("stack", "karma")):
            if isinstance(value, list) and value == sorted(value, key=str):
                continue  # an order that equals the sorted contents is no distinctive secret
        if label.startswith(("unseen text", "commit pair")):
            data = encoded(value)[1:-1]
        else:
            data = secret_value(value)
        if data:
            out.append((label, data))
    return out


def folded_states(service, game_id: str) -> list[dict]:
    """The state after setup and after each effective move, from the stored events."""
    stored = list(service.events.get(uuid.UUID(game_id)))
    created = stored[0]
    rules = get_rules(created.game_type)
    undone = {v for e in stored if type(e).__name__ == "MovesUndone" for v in e.undone_versions}
    state = fold(rules.evolve, rules.initial_state(created.players, created.options),
                 orjson.loads(orjson.dumps(created.setup_facts)))
    states = [orjson.loads(orjson.dumps(state))]
    for event in stored[1:]:
        if type(event).__name__ == "MovePlayed" and event.originator_version not in undone:
            state = fold(rules.evolve, state, orjson.loads(orjson.dumps(event.facts)))
            states.append(orjson.loads(orjson.dumps(state)))
    return states


def stored_facts(service, game_id: str) -> list[dict]:
    """Every fact of the game so far (setup and moves, undone ones too)."""
    stored = list(service.events.get(uuid.UUID(game_id)))
    facts = list(stored[0].setup_facts)
    for event in stored[1:]:
        if type(event).__name__ == "MovePlayed":
            facts += event.facts
    return facts


def known_record(facts: list[dict], viewer) -> bytes:
    """What the facts showed `viewer` (the kernel's `visible_fact`): a value found here is no
    new secret (face-up display cards put at the bottom of a deck in a known order; cards a
    seat drew in a move that was undone afterwards, back on top of its deck)."""
    return b"\n".join(encoded(visible_fact(f, viewer)) for f in facts)


def card_name(game: str, card) -> str | None:
    """The name a description would use for a card id of `game` (None: not a card)."""
    if not isinstance(card, str):
        return None
    if game == "my_fathers_work":
        from domain.games.my_fathers_work import content as M
        for table, key in ((M.EXPERIMENTS, "title"), (M.COMPULSIONS, "text"), (M.MALADJUSTMENTS, "text")):
            if card in table:
                return table[card].get(key)
    elif game == "adas_dream":
        from domain.games.adas_dream import content as A
        if card in A.PARTNERS or "#" in card:
            try:
                return A.partner(card)["name"]
            except (KeyError, ValueError):
                return None
        if card in A.ASSIGNMENTS:
            return A.ASSIGNMENTS[card]["name"]
    elif game == "abomination":
        from domain.games.abomination.content import C as B
        return (B.cards.get(card) or {}).get("name")
    return None


def strings_in(value) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(strings_in(v) for v in value)) if value else set()
    return set()


def secret_names(game: str, facts: list[dict]) -> dict[str, str]:
    """Names of the cards that this move's facts show only to some seat (name -> card id),
    unless a public fact of the same move names the card too."""
    public = set().union(*(strings_in(f if PRIVATE_KEY not in f else f.get(PUBLIC_KEY) or {}) for f in facts)) \
        if facts else set()
    names = {}
    for record in facts:
        if not record.get(PRIVATE_KEY):  # public, or hidden from everyone (whole deck orders)
            continue
        data = {k: v for k, v in record.items() if k not in (PRIVATE_KEY, PUBLIC_KEY)}
        for card in strings_in(data) - public:
            name = card_name(game, card)
            if name and len(name) >= 6:
                names[name] = card
    return names


# --------------------------------------------------------------------------- the sweep


class Sweep:
    """Fetches every read endpoint for every viewer and checks it against the oracle."""

    def __init__(self, client, service, game: TestGame, game_type: str, players: int, seed: int) -> None:
        self.client, self.service, self.game = client, service, game
        self.game_type, self.players, self.seed = game_type, players, seed
        tokens = game.seat_tokens + [game.referee_token]
        self.always = [("seed", str(seed).encode())] + [("token hash", hash_token(t).encode()) for t in tokens]
        self.viewers = ["spectator", "referee", *range(players)]
        self._salts: list[tuple[str, bytes]] = []
        self._read_to = 0  # the version of the last event whose salt was read (the first is version 1)

    def forbidden(self, viewer, states: list[dict] | None = None,
                  facts: list[dict] | None = None, salts: list[tuple[str, bytes]] | None = None,
                  known: bytes | None = None) -> list[tuple[str, bytes]]:
        """Secrets `viewer` may not see now (the game runs): facts (default: all stored so far),
        the live state (or `states`), the other tokens. A sweep (no move in between) passes the
        salts and `known_record(facts, viewer)` it read once instead of reading them per call."""
        who = "spectator" if viewer == "referee" else viewer
        secrets = list(self.always) + (self.salts() if salts is None else salts)
        secrets += [(f"seat {s} token", t.encode()) for s, t in enumerate(self.game.seat_tokens) if s != viewer]
        if viewer != "referee":
            secrets.append(("referee token", self.game.referee_token.encode()))
        facts = stored_facts(self.service, self.game.id) if facts is None else facts
        hidden: list[tuple[str, object]] = []
        for state in states if states is not None else [self.service.game(self.game.id).state]:
            found = state_hidden(self.game_type, state, who)
            secrets += hidden_cards(state, found)
            hidden += found
        secrets += state_secrets(self.game_type, hidden)
        still_hidden = hidden_items(hidden)
        for record in facts:
            if hidden_from(record, who):
                # A list of cards a fact showed one seat (cards drawn) is a secret while one of
                # them is still somewhere hidden; discarded face up in that order, it is not.
                secrets += [(label, data) for label, data, value in fact_secrets(record)
                            if not isinstance(value, list) or still_hidden & set(map(str, value))
                            or still_hidden & {v for v in value if isinstance(v, int)}]
        known = known_record(facts, who) if known is None else known
        return [(label, secret) for label, secret in secrets if secret not in known]

    def salts(self) -> list[tuple[str, bytes]]:
        """The moves' hash salts (never shown: with one, a hidden fact could be found by hashing guesses).
        The log only grows: each call reads the events stored since the last one."""
        for event in self.service.events.get(uuid.UUID(self.game.id), gt=self._read_to):
            self._read_to = event.originator_version
            if getattr(event, "salt", ""):
                self._salts.append(("salt", event.salt.encode()))
        return list(self._salts)

    def check(self, body: bytes, secrets, context: str) -> None:
        for label, secret in secrets:
            assert secret not in body, f"{context}: {label} leaked: {secret[:200]!r}"

    def get(self, path: str, viewer, **params) -> bytes:
        token = self.game.token(viewer if viewer != "spectator" else None)
        response = self.client.get(path, params=params, headers=bearer(token))
        assert response.status_code < 500, f"{path} as {viewer}: {response.status_code} {response.text}"
        return response.content

    def bodies(self, viewer) -> list[tuple[str, bytes]]:
        gid = self.game.id
        paths = [f"/games/{gid}", f"/games/{gid}/legal-moves", f"/games/{gid}/moves-log",
                 f"/games/{gid}/history", f"/games/{gid}/scores", f"/games/{gid}/analytics"]
        if viewer == "spectator":  # the same for every caller: fetched once per sweep
            paths += ["/games", f"/analytics/{self.game_type}", f"/scoreboard/{self.game_type}",
                      f"/games/{gid}/audit/verify"]
        out = [(path, self.get(path, viewer)) for path in paths]
        out.append((f"/games/{gid}/events", self.get(f"/games/{gid}/events", viewer, limit=1000)))
        out.append((f"/games/{gid}/stream", self.get(f"/games/{gid}/stream", viewer, follow="false")))
        out.append((f"/games/{gid}/replay", self.get(f"/games/{gid}/replay", viewer)))
        return out

    def replay_steps(self, steps: int) -> list[int]:
        return sorted({0, steps // 2, steps - 1, steps} & set(range(steps + 1)))

    def check_descriptions(self, context: str) -> None:
        """A move's description (one text for everybody) never names a card that the move's
        facts show only to one seat (a kept card, a drawn one, a secret encounter)."""
        stored = {e.originator_version: e for e in self.service.events.get(uuid.UUID(self.game.id))
                  if type(e).__name__ == "MovePlayed"}
        log = orjson.loads(self.get(f"/games/{self.game.id}/moves-log", "spectator"))
        for entry in log:
            for name, card in secret_names(self.game_type, stored[entry["version"]].facts).items():
                assert name not in entry["description"], \
                    f"{context}: the description of move {entry['move_no']} names the secret card {card} " \
                    f"({name}): {entry['description']}"

    def sweep(self, context: str) -> None:
        """Every endpoint, every viewer, while the game runs."""
        self.check_descriptions(context)
        states = folded_states(self.service, self.game.id)
        facts = stored_facts(self.service, self.game.id)
        salts = self.salts()  # no move is played during a sweep: read once
        steps = len(states) - 1
        for viewer in self.viewers:
            known = known_record(facts, "spectator" if viewer == "referee" else viewer)
            secrets = self.forbidden(viewer, facts=facts, salts=salts, known=known)
            for path, body in self.bodies(viewer):
                self.check(body, secrets, f"{context}: {path} as {viewer}")
            for step in self.replay_steps(steps):
                body = self.get(f"/games/{self.game.id}/replay", viewer, step=step)
                at_step = self.forbidden(viewer, [states[step]], facts, salts, known)
                self.check(body, at_step, f"{context}: /replay?step={step} as {viewer}")

    def sweep_finished(self, context: str) -> None:
        """After the end: everybody sees everything but the seed and the token hashes."""
        self.check_descriptions(context)  # written while the game ran
        never = self.always + self.salts()
        steps = len(folded_states(self.service, self.game.id)) - 1  # the game is over: folded once
        for viewer in self.viewers:
            for path, body in self.bodies(viewer):
                self.check(body, never, f"{context}: {path} as {viewer}")
            for step in self.replay_steps(steps):
                body = self.get(f"/games/{self.game.id}/replay", viewer, step=step)
                self.check(body, never, f"{context}: /replay?step={step} as {viewer}")


def hides_something(facts: list[dict]) -> set[str]:
    """The types of the private facts among `facts`."""
    return {f["type"] for f in facts if PRIVATE_KEY in f}


@pytest.mark.parametrize("game_type, players", CASES)
def test_hidden_information_over_every_endpoint(client, service, game_type, players):
    seed = SEED_BASE + 100 * GAMES.index(game_type) + players
    chooser = random.Random(f"hidden:{game_type}:{players}")
    game = TestGame.create(client, game_type, players, seed=seed, options=OPTIONS.get((game_type, players), {}))
    sweep = Sweep(client, service, game, game_type, players, seed)
    sweep.sweep(f"{game_type} {players}p after setup")
    checked_types: set[str] = set()
    checks = moves = 0
    undone = False
    rules = get_rules(game_type)
    while moves < MAX_MOVES:
        # The driver reads whose turn it is and the legal moves in-process (the sweeps fetch
        # them over HTTP); every move is posted over HTTP.
        live = service.game(game.id)
        if live.finished:
            break
        seat = chooser.choice(list(rules.decision(live.state).seats))
        legal = orjson.loads(orjson.dumps(rules.legal_moves(live.state, seat)))
        assert legal, f"seat {seat} must act but has no legal move"
        answer = game.post_move(seat, chooser.choice(legal), expected_version=live.version)
        assert answer.status_code == 201, answer.text
        moves += 1
        context = f"{game_type} {players}p seed {seed} move {moves}"
        if answer.json()["status"] == "finished":
            break
        version = answer.json()["version"]
        facts = next(iter(service.events.get(uuid.UUID(game.id), gt=version - 1, lte=version))).facts
        sweep.check(answer.content, sweep.forbidden(seat, facts=facts), f"{context}: POST /moves answer to seat {seat}")
        if moves == UNDO_AT and not undone:  # the undone move's facts stay in the log: still redacted
            undone = True
            undo = client.post(f"/games/{game.id}/undo", json={"to_move": moves, "reason": "audit"},
                               headers=bearer(game.referee_token))
            assert undo.status_code == 201 and undo.json()["status"] == "applied", undo.text
            moves -= 1
            sweep.sweep(f"{context} undone by the referee")
            continue
        new_types = hides_something(facts) - checked_types
        if new_types and checks < MAX_CHECKS:  # right after a commitment, draw, deal, shuffle...
            checked_types |= new_types
            checks += 1
            sweep.sweep(context)
    if game.get()["status"] == "finished":
        sweep.sweep_finished(f"{game_type} {players}p finished after {moves} moves")
    else:
        sweep.sweep(f"{game_type} {players}p after {moves} moves")


def test_a_set_aside_game_never_quotes_its_failure_message(client, service):
    """A projection that cannot apply an event sets the game aside (503 projection_failed);
    the exception message may quote the state (a hidden card id), so callers get its type only."""
    from domain.service import SPECTATOR_CALLER
    from projections.readside import GameSetAside, ReadSide

    secret = "secret-card-in-a-deck-0451"

    class RollsBreakEvolve:
        def __init__(self, rules):
            self.rules = rules

        def __getattr__(self, name):
            return getattr(self.rules, name)

        def evolve(self, state, record):
            if record["type"] == "Rolled":
                raise KeyError(secret)
            return self.rules.evolve(state, record)

    def rules_for(game_type):
        rules = get_rules(game_type)
        return RollsBreakEvolve(rules) if game_type == "api_count" else rules

    bad = TestGame.create(client, "api_count", 2, seed=1)
    bad.move(0, {"type": "add", "amount": 1})
    bad.move(1, {"type": "roll"})
    side = ReadSide(service, name_suffix="-secret", rules_for=rules_for)
    side.catch_up()
    with pytest.raises(GameSetAside) as refused:
        side.replay(bad.id, 1, SPECTATOR_CALLER)
    assert "KeyError" in refused.value.detail and secret not in refused.value.detail
    assert secret not in orjson.dumps(side.status()).decode()
    assert set(side.status()["projections"]["replay"]["games_set_aside"]) == {bad.id}


def test_the_public_hash_of_a_move_does_not_confirm_a_guess_of_its_hidden_facts(client, service):
    """Every event's `hash` is public (events listing, audit head). If it were computed from
    the event's fields alone, a spectator could find a secret commitment by hashing each
    possible option and comparing. A random salt, hashed and never shown, prevents it."""
    from domain.audit import chain_hash

    game = TestGame.create(client, "my_fathers_work", 2, seed=SEED_BASE)
    rules = get_rules("my_fathers_work")
    for _ in range(3):
        live = service.game(game.id)
        seat = sorted(rules.decision(live.state).seats)[0]
        game.move(seat, rules.legal_moves(live.state, seat)[0])
    listed = {e["version"]: e for e in game.events(None)}
    moves = [e for e in service.events.get(uuid.UUID(game.id)) if type(e).__name__ == "MovePlayed"]
    assert any(hides_something(e.facts) for e in moves), "the test needs a move with a hidden fact"
    for event in moves:
        assert listed[event.originator_version]["hash"] == event.hash  # what a spectator gets
        known = {k: v for k, v in vars(event).items() if k != "salt"}  # a perfect guess of everything else
        assert chain_hash(event.prev_hash, "MovePlayed", event.originator_version, known) != event.hash, \
            f"move {event.move_no}: its hash can be recomputed without any secret: guesses can be confirmed"
        assert len(event.salt) >= 32


def test_adas_dream_public_scores_do_not_depend_on_the_hidden_tier1_cards(client, service):
    """The scores every caller gets (GET /games, /scores, replay, the events' payload) must be
    the same whatever the face-down cards are: swapping two seats' hidden tier-1 cards (their
    public information unchanged) must not change them."""
    from domain.engine import copy_state

    rules = get_rules("adas_dream")
    for seed in range(SEED_BASE, SEED_BASE + 20):
        game = TestGame.create(client, "adas_dream", 3, seed=seed)
        live = service.game(game.id).state
        hidden = [[c for c in p["deck"] + p["hand"] if "#" not in c] for p in live["players"]]
        if any(len(cards) != 1 for cards in hidden) or len({tuple(c) for c in hidden}) < 2:
            continue
        assert {int(k): v for k, v in game.get()["scores"].items()} == rules.scores(live)  # shown to spectators
        swapped = copy_state(live)
        a, b = hidden[0][0], hidden[1][0]
        for seat, (old, new) in ((0, (a, b)), (1, (b, a))):
            p = swapped["players"][seat]
            p["deck"] = [new if c == old else c for c in p["deck"]]
            p["hand"] = [new if c == old else c for c in p["hand"]]
        if rules.view(swapped, "spectator") != rules.view(live, "spectator"):
            continue  # the swap must leave the public view as it was
        assert rules.scores(swapped) == rules.scores(live), \
            f"seed {seed}: the public scores change with the face-down tier-1 cards {a} / {b}"
        return
    pytest.skip("no setup with two different face-down tier-1 cards")
