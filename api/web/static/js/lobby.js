// The lobby's new-game form: seats by invitation links or all on this screen, bots when offered.
import { api, ApiError, el, forgetHeld, loadHeld, myGames, saveHeld, seatName } from "./api.js";

const form = document.getElementById("new-game");
const gameSelect = form.elements.game;
const players = form.elements.players;
const result = document.getElementById("new-game-result");
const errorBox = document.querySelector("[data-testid=new-game-error]");

function option() { return gameSelect.selectedOptions[0]; }
function botLevels() {
  try { return JSON.parse(option().dataset.botLevels || "[]"); } catch (e) { return []; }
}

// The number of players is never changed behind a person's back (issue 25.8): an out-of-range
// number is refused in words when the form is sent (`formProblem`), nothing created.
function syncPlayers() {
  const min = Number(option().dataset.min), max = Number(option().dataset.max);
  players.min = String(min);
  players.max = String(max);
  const value = Number(players.value);
  const count = Number.isInteger(value) && value >= min && value <= max ? value : min;
  form.elements.names.placeholder = Array.from({ length: count }, (_, i) => `player ${i + 1}`).join(", ");
  syncBots(count);
}

// One "person / bot level" choice per seat, shown only when the server offers bot levels.
function syncBots(count) {
  const levels = botLevels();
  const box = document.getElementById("ng-bots");
  box.hidden = !levels.length;
  const seats = document.getElementById("ng-bot-seats");
  const before = Object.fromEntries([...seats.querySelectorAll("select")].map((s) => [s.dataset.seat, s.value]));
  seats.replaceChildren(...(levels.length ? Array.from({ length: count }, (_, seat) => {
    const id = `ng-bot-${seat}`;
    const select = el("select", { id, name: `bot-${seat}`, dataset: { seat: String(seat) } },
      el("option", { value: "" }, "a person"), ...levels.map((level) => el("option", { value: level }, `bot: ${level}`)));
    if (before[seat] !== undefined) select.value = before[seat];
    return el("label", { for: id }, `Seat ${seat} `, select);
  }) : []));
}

function linkRow(label, href, testid) {
  const copy = el("button", { type: "button", class: "small", onclick: async () => {
    try { await navigator.clipboard.writeText(href); copy.textContent = "copied"; } catch (e) { copy.textContent = "select and copy"; }
  } }, "Copy");
  return el("li", {}, el("span", { class: "who" }, label), el("a", { href, "data-testid": testid }, href), copy);
}

function showCreated(created, names, seating, bots) {
  const origin = location.origin;
  const id = created.id;
  const held = loadHeld(id);
  held.referee = created.referee_token;
  const items = [];
  let intro;
  if (created.invites) {
    intro = "Send each player their own link (each works once). Keep the referee link to yourself.";
    for (const invite of created.invites) {
      items.push(linkRow(`${names[invite.seat] || `Seat ${invite.seat}`}`,
        `${origin}/ui/join/${id}#invite=${encodeURIComponent(invite.invite)}`, "invite-link"));
    }
    held.current = "referee";
  } else if (seating === "invite") {
    // This server hands out seat tokens directly: each player's link carries their token.
    intro = "Send each player their own link (it holds their seat's secret). Keep the referee link to yourself.";
    for (const seat of created.seats.filter((s) => !bots[String(s.seat)])) {
      items.push(linkRow(`${names[seat.seat] || `Seat ${seat.seat}`}`,
        `${origin}/ui/games/${id}#token=${encodeURIComponent(seat.token)}`, "invite-link"));
    }
    held.current = "referee";
  } else {
    intro = "Every seat is held by this browser tab: the table follows whoever must act.";
    const people = (created.seats || []).filter((s) => !bots[String(s.seat)]);  // bots play by themselves
    for (const seat of people) held.seats[String(seat.seat)] = seat.token;
    held.current = people.length ? `seat:${people[0].seat}` : "referee";
    held.follow = true;
  }
  saveHeld(id, held);
  for (const [seat, level] of Object.entries(bots)) {
    items.push(el("li", {}, el("span", { class: "who" }, names[seat] || `Seat ${seat}`), `a bot (${level}) plays this seat`));
  }
  items.push(linkRow("Referee", `${origin}/ui/games/${id}#token=${encodeURIComponent(created.referee_token)}`, "referee-link"));
  result.replaceChildren(
    el("h3", {}, "The game is set up"),
    el("p", {}, intro),
    el("ul", { class: "links" }, items),
    el("p", {}, el("a", { href: `/ui/games/${id}`, "data-testid": "table-link", class: "button-link" },
      seating === "one-screen" ? "Open the table →" : "Open the table as referee →")),
  );
  result.hidden = false;
  result.querySelector("a").focus();
  showMyGames();
}

// What is wrong with the form, as a sentence (and the field to fix), or null: checked before anything
// is created; the server says the same in its own words if something slips through.
function formProblem(count, names) {
  const min = Number(option().dataset.min), max = Number(option().dataset.max);
  const title = option().textContent.trim();
  if (players.value.trim() === "" || !Number.isInteger(count)) {
    return [`Say how many players are at the table: a whole number from ${min} to ${max}.`, players];
  }
  if (count < min || count > max) {
    return [`${title} is for ${min === max ? min : `${min} to ${max}`} players; you asked for ${count}.`, players];
  }
  if (names.length && names.length !== count) {
    return [`Give ${count} names (one per player, separated by commas) or none; you gave ${names.length}.`,
      form.elements.names];
  }
  const seen = new Map();
  for (const [index, name] of names.entries()) {
    if (name.length > 40) return [`Player ${index + 1}'s name has at most 40 characters, not ${name.length}.`, form.elements.names];
    if (/[<>]/.test(name)) return [`Player ${index + 1}'s name may not contain '<' or '>'.`, form.elements.names];
    const key = name.toLowerCase();
    if (seen.has(key)) {
      return [`Player ${index + 1}'s name '${name}' is already the name of player ${seen.get(key) + 1}; names are unique within a game.`,
        form.elements.names];
    }
    seen.set(key, index);
  }
  return null;
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  errorBox.textContent = "";
  const count = Number(players.value);
  const names = form.elements.names.value.split(",").map((n) => n.trim()).filter(Boolean);
  const problem = formProblem(count, names);
  if (problem) {
    errorBox.textContent = problem[0];
    problem[1].focus();
    return;
  }
  const seating = form.elements.seating.value;
  const body = { game: gameSelect.value, players: count };
  if (names.length) body.names = names;
  if (seating === "invite") body.seating = "invite";
  body.undo_policy = form.elements.undo_policy.value;
  if (form.elements.analysis_during_play.checked) body.analysis_during_play = true;
  const clock = clockChosen();
  if (clock && clock.problem) { errorBox.textContent = clock.problem; form.elements.clock_seconds.focus(); return; }
  if (clock) { body.clock = clock; body.on_timeout = form.elements.on_timeout.value; }
  const bots = {};
  for (const select of document.querySelectorAll("#ng-bot-seats select")) if (select.value) bots[select.dataset.seat] = select.value;
  if (Object.keys(bots).length) body.bots = bots;
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    const created = await api("/games", { method: "POST", body });
    const shown = names.length ? names : Array.from({ length: count }, (_, i) => (created.seats && created.seats[i] && created.seats[i].name) || `Seat ${i}`);
    showCreated(created, shown, seating, bots);
  } catch (error) {
    errorBox.textContent = error instanceof ApiError ? (error.body.detail || error.body.error) : String(error);
  } finally { button.disabled = false; }
});

// ---- the table's clock (API.md "Table options"): none, correspondence, live, or seconds of one's own

const CLOCKS = { correspondence: { per_move_s: 86400 }, live: { bank_s: 600, increment_s: 5 } };

function clockChosen() {
  const kind = form.elements.clock.value;
  if (kind === "none") return null;
  if (CLOCKS[kind]) return CLOCKS[kind];
  const seconds = Number(form.elements.clock_seconds.value);
  const increment = Number(form.elements.clock_increment.value || 0);
  if (!Number.isFinite(seconds) || seconds < 1) return { problem: "The clock needs a whole number of seconds, 1 or more." };
  if (!Number.isFinite(increment) || increment < 0) return { problem: "The seconds added a move are 0 or more." };
  return kind === "per_move" ? { per_move_s: seconds } : { bank_s: seconds, increment_s: increment };
}

function syncClock() {
  const kind = form.elements.clock.value;
  document.getElementById("ng-clock-custom").hidden = !["per_move", "bank"].includes(kind);
  document.getElementById("ng-clock-inc-wrap").hidden = kind !== "bank";
  document.getElementById("ng-clock-seconds-hint").textContent = kind === "bank" ? "in all, for each player" : "per move";
  document.getElementById("ng-timeout-wrap").hidden = kind === "none";
}
form.elements.clock.addEventListener("change", syncClock);
syncClock();

gameSelect.addEventListener("change", syncPlayers);
players.addEventListener("input", () => syncPlayers());
syncPlayers();

// ---- my-games: the games this browser holds a seat in (api.js keeps them in localStorage)

const TITLES = Object.fromEntries([...gameSelect.options].map((o) => [o.value, o.textContent.trim()]));

async function myGameItem(id) {
  const held = loadHeld(id);
  const seats = Object.keys(held.seats).map(Number).sort((a, b) => a - b);
  const token = seats.length ? held.seats[String(seats[0])] : held.referee;
  const forget = el("button", { type: "button", class: "small", "data-testid": "forget", onclick: () => {
    forgetHeld(id);
    showMyGames();
  } }, "Forget");
  let view = null;
  try { view = await api(`/games/${id}`, { token }); } catch (error) {
    if (error instanceof ApiError && error.status === 404) { forgetHeld(id); return null; }  // gone from the server
  }
  const names = (view && view.names) || [];
  const mine = seats.length ? `you hold ${seats.map((s) => seatName(names, s)).join(", ")}` : "you are the referee";
  let state = "";
  if (view && view.status === "finished") {
    const winners = (view.winners || []).map((s) => seatName(names, s));
    state = winners.length ? `finished · won by ${winners.join(", ")}` : "finished";
  } else if (view) {
    const mineToAct = (view.to_act || []).filter((s) => seats.includes(s));
    state = mineToAct.length ? `your turn (${mineToAct.map((s) => seatName(names, s)).join(", ")})`
      : `waiting for ${(view.to_act || []).map((s) => seatName(names, s)).join(", ") || "nobody"}`;
  }
  return el("li", { dataset: { gameId: id, status: view ? view.status : "unknown" } },
    el("a", { href: `/ui/games/${id}` }, TITLES[view && view.game] || (view && view.game) || "A game"),
    el("span", { class: "meta" }, ` ${names.join(", ")} · ${mine}${state ? ` · ${state}` : ""} `), forget);
}

async function showMyGames() {
  const ids = myGames();
  const list = document.getElementById("my-games");
  document.getElementById("my-games-section").hidden = !ids.length;
  const items = (await Promise.all(ids.slice(0, 30).map(myGameItem))).filter(Boolean);
  list.replaceChildren(...items);
  document.getElementById("my-games-section").hidden = !items.length;
}
showMyGames();
