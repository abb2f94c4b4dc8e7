// The JSON API from the browser, and the tokens this browser holds.
//
// A token arrives in the URL fragment (#token=...), which browsers never send to a server.
// The seats a browser holds are kept in its localStorage under the game's id (issue 25.7: seats
// you can find again, in a new tab or after a restart; the lobby's `my-games` lists them and can
// forget one); which of them a tab is looking through (and whether it follows the seat to act)
// stays in that tab's sessionStorage. A token is sent only as "Authorization: Bearer" to this same
// origin, never in a query string.

const key = (gameId) => `heirloom.game.${gameId}`;          // this tab: {current, follow}
const seatsKey = (gameId) => `heirloom.seats.${gameId}`;    // this browser: {seats, referee, saved_at}
const MY_GAMES = "heirloom.my-games";                        // this browser: [game id, ...], newest first

function readJson(storage, name) {
  try {
    const value = JSON.parse(storage.getItem(name) || "null");
    return value && typeof value === "object" ? value : null;
  } catch (e) { return null; }
}

export function loadHeld(gameId) {
  const tab = readJson(sessionStorage, key(gameId)) || {};
  const kept = readJson(localStorage, seatsKey(gameId)) || {};
  const held = {
    seats: { ...(tab.seats || {}), ...(kept.seats || {}) },  // tab.seats: what pages before localStorage kept
    referee: kept.referee || tab.referee || null,
    current: tab.current || null,
    follow: tab.follow === undefined ? true : tab.follow,
  };
  return held;
}

export function saveHeld(gameId, held) {
  sessionStorage.setItem(key(gameId), JSON.stringify({ current: held.current, follow: held.follow }));
  if (!Object.keys(held.seats || {}).length && !held.referee) return;
  localStorage.setItem(seatsKey(gameId), JSON.stringify({ seats: held.seats, referee: held.referee, saved_at: Date.now() }));
  const games = myGames().filter((id) => id !== gameId);
  localStorage.setItem(MY_GAMES, JSON.stringify([gameId, ...games]));
}

// The games this browser holds a seat (or the referee's token) in, newest first.
export function myGames() {
  try {
    const ids = JSON.parse(localStorage.getItem(MY_GAMES) || "[]");
    return Array.isArray(ids) ? ids.filter((id) => typeof id === "string" && localStorage.getItem(seatsKey(id))) : [];
  } catch (e) { return []; }
}

// Forget a game: its tokens leave this browser (the seat is not given up: its link still works).
export function forgetHeld(gameId) {
  localStorage.removeItem(seatsKey(gameId));
  sessionStorage.removeItem(key(gameId));
  localStorage.setItem(MY_GAMES, JSON.stringify(myGames().filter((id) => id !== gameId)));
}

// The token of the viewer `who` ("seat:N", "referee" or "spectator") or null.
export function tokenOf(held, who) {
  if (!who || who === "spectator") return null;
  if (who === "referee") return held.referee;
  const seat = who.startsWith("seat:") ? who.slice(5) : null;
  return seat !== null ? held.seats[seat] || null : null;
}

export function viewers(held) {
  const seats = Object.keys(held.seats).map(Number).sort((a, b) => a - b).map((s) => `seat:${s}`);
  return held.referee ? [...seats, "referee"] : seats;
}

// Read `name` from the URL fragment and take the fragment out of the address bar,
// so the secret is not left on screen, in the history or in a shared link.
export function takeFragment(name) {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  const value = params.get(name);
  if (location.hash) history.replaceState(history.state, "", location.pathname + location.search);
  return value;
}

export class ApiError extends Error {
  constructor(status, body) {
    super((body && (body.detail || body.error)) || `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
  }
}

export async function api(path, { token = null, method = "GET", body, text = false } = {}) {
  const headers = { Accept: text ? "image/svg+xml" : "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: "no-store",
  });
  if (!response.ok) {
    let data = null;
    try { data = await response.json(); } catch (e) { data = null; }
    throw new ApiError(response.status, data);
  }
  return text ? response.text() : response.json();
}

// A tiny element builder: el("li", {dataset: {step: 3}, onclick}, "text", child).
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "dataset") Object.assign(node.dataset, value);
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (name === "text") node.textContent = value;
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// Put an SVG document sent by this server into `container` (it escapes every text node).
export function showSvg(container, svgText) {
  const doc = new DOMParser().parseFromString(svgText, "image/svg+xml");
  const svg = doc.documentElement;
  if (!svg || svg.nodeName !== "svg") { container.textContent = "The picture could not be read."; return null; }
  for (const script of svg.querySelectorAll("script, foreignObject")) script.remove();
  const node = document.importNode(svg, true);
  container.replaceChildren(node);
  return node;
}

export function seatName(names, seat) {
  const name = names[seat];
  return name ? name : `Seat ${seat}`;
}

// "seat:1" / "referee" / "spectator" in words.
export function actorName(names, actor) {
  if (!actor) return "";
  if (actor.startsWith("seat:")) return seatName(names, Number(actor.slice(5)));
  if (actor.startsWith("bot:")) return `a bot (${actor.slice(4)})`;
  return actor === "referee" ? "the referee" : actor;
}

// A move in words, with who really played it when not the seat's player (issue 28: a bot because
// the clock ran out, or the player left): "ann adds 1 (played by a bot: ann's clock ran out)".
export function moveWords(entry) {
  const text = entry.description || fallbackLabel(entry.move);
  return entry.actor_note ? `${text} (${entry.actor_note})` : text;
}

export function fallbackLabel(move) {
  if (!move || typeof move !== "object") return String(move);
  const kind = String(move.type || "move").replace(/_/g, " ");
  const details = Object.entries(move).filter(([k]) => k !== "type")
    .map(([k, v]) => `${k.replace(/_/g, " ")} ${typeof v === "object" ? JSON.stringify(v) : v}`).join(", ");
  return kind.charAt(0).toUpperCase() + kind.slice(1) + (details ? ` (${details})` : "");
}

export const SEAT_COLOURS = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9"];

// A token given in the link (#token=...): ask the server whose it is, keep it for this game.
// Returns false when the server does not know it (the page then shows the spectator's view).
export async function adoptLinkToken(gameId, held) {
  const fresh = takeFragment("token");
  if (!fresh) return true;
  try {
    const view = await api(`/games/${gameId}`, { token: fresh });
    if (view.you.role === "seat") { held.seats[String(view.you.seat)] = fresh; held.current = `seat:${view.you.seat}`; }
    else if (view.you.role === "referee") { held.referee = fresh; held.current = "referee"; }
    saveHeld(gameId, held);
    return true;
  } catch (error) {
    return false;
  }
}

export function errorText(error) {
  if (!(error instanceof ApiError)) return `The server did not answer (${error.message}).`;
  const body = error.body;
  if (body.error === "illegal_move") return `Not allowed: ${body.detail}${body.rule ? ` (${body.rule})` : ""}`;
  if (body.error === "version_conflict") return "Someone moved first; the table is up to date now.";
  return body.detail || body.error || `HTTP ${error.status}`;
}

// The audit chain's state into `box`; returns the verification (or null when it failed).
export async function showAudit(box, gameId) {
  try {
    const audit = await api(`/games/${gameId}/audit/verify`);
    box.className = audit.ok ? "ok" : "bad";
    box.textContent = audit.ok
      ? `ok — ${audit.events} events, chain head ${String(audit.head).slice(0, 12)}…`
      : `broken: ${audit.problem || "the chain does not verify"}`;
    return audit;
  } catch (error) {
    box.className = "bad";
    box.textContent = `cannot check: ${errorText(error)}`;
    return null;
  }
}

// The board's "fit to the page" / "actual size" switch, remembered for this tab.
export function boardZoom(button, board) {
  const apply = (full) => {
    board.classList.toggle("full", full);
    button.setAttribute("aria-pressed", full ? "true" : "false");
    button.textContent = full ? "Fit to the page" : "Actual size";
  };
  apply(sessionStorage.getItem("heirloom.board.full") === "1");
  button.addEventListener("click", () => {
    const full = !board.classList.contains("full");
    sessionStorage.setItem("heirloom.board.full", full ? "1" : "0");
    apply(full);
  });
}
