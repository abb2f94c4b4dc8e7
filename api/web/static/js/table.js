// The table: board, who acts, legal moves, move log, scores, the dispute desk; live.
import {
  adoptLinkToken, boardZoom, api, actorName, el, errorText, fallbackLabel, moveWords, loadHeld, saveHeld, seatName, showAudit, showSvg,
  tokenOf, viewers, SEAT_COLOURS,
} from "./api.js";
import { follow } from "./live.js";
import { markPlayable, showBoard } from "./board.js";
import { openDetail } from "./detail.js";
import { Composer, playMove } from "./composer.js";
import { showFinalScores } from "./endgame.js";
import { coverFor, passDevice } from "./passdevice.js";
import { renderSeats, wireNotify } from "./seats.js";

const root = document.getElementById("table");
const gameId = root.dataset.gameId;
const names = JSON.parse(root.dataset.names || "[]");
const $ = (id) => document.getElementById(id);
boardZoom(document.getElementById("board-zoom"), document.getElementById("board"));
const held = loadHeld(gameId);
let game = null;          // the last GET /games/{id}
let log = [];             // the last moves-log
let busy = false, again = false;
let playing = false;
const composer = new Composer(document.getElementById("move-composer"), {
  play: (move, version) => play(move, version),
  nameOf: (key) => {
    const node = document.querySelector(`#board [data-target="${CSS.escape(key)}"]`);
    return node ? (node.getAttribute("aria-label") || key).split(". ")[0] : key;
  },
  about: (key) => {
    const node = document.querySelector(`#board [data-target="${CSS.escape(key)}"]`);
    openDetail(root.dataset.game, (node && node.getAttribute("data-detail")) || key, node,
      node ? node.getAttribute("aria-label") || "" : "", () => api(`/games/${gameId}/glossary`, { token: token() }));
  },
});

function say(text, ok = false) {
  const box = $("message");
  box.textContent = text || "";
  box.classList.toggle("ok", ok);
}

function who() { return held.current || "spectator"; }
function token() { return tokenOf(held, who()); }
function mySeat() { return who().startsWith("seat:") ? Number(who().slice(5)) : null; }
// This seat was left to a bot (issue 28.2): the bot plays it now, never the page.
function handedOver() {
  const seat = mySeat();
  return !!(game && seat !== null && game.seats && game.seats[seat] && game.seats[seat].left);
}

function viewerLabel(v) {
  if (v === "referee") return "Referee";
  if (v === "spectator") return "Spectator";
  const seat = Number(v.slice(5));
  return `${seatName(names, seat)} (seat ${seat})`;
}

function fillViewerSelect() {
  const select = $("viewer");
  const options = [...viewers(held), "spectator"];
  select.replaceChildren(...options.map((v) => el("option", { value: v, selected: v === who() }, viewerLabel(v))));
  const seats = Object.keys(held.seats).length;
  $("follow-wrap").hidden = seats < 2;
  $("follow").checked = !!held.follow;
  $("copy-link").hidden = who() === "spectator";
}

// ---- rendering

function renderToAct() {
  const box = $("to-act");
  if (game.status === "finished") {
    const winners = (game.winners || []).map((s) => seatName(names, s));
    box.replaceChildren(el("p", { class: "who" }, "The game is over."),
      el("p", {}, winners.length ? `Won by ${winners.join(", ")}.` : "Nobody won."));
    return;
  }
  const seats = game.to_act || [];
  const bots = game.bots || {};
  const whoText = seats.length
    ? seats.map((s) => seatName(names, s) + (bots[String(s)] ? ` (bot, ${bots[String(s)]})` : "")).join(", ") : "nobody";
  const mine = mySeat() !== null && seats.includes(mySeat()) && !handedOver();
  const prompt = game.prompt || (game.decision && game.decision.prompt) || "";
  box.replaceChildren(
    el("p", { class: "who" }, mine ? `Your turn, ${seatName(names, mySeat())}` : `To act: ${whoText}`),
    prompt ? el("p", { class: "prompt" }, prompt) : null,
  );
}

function renderMoves(listing) {
  const box = $("legal-moves");
  const moves = (listing && listing.moves) || [];
  const labels = (listing && listing.labels) || [];
  $("moves-filter-wrap").hidden = moves.length < 12;
  const filter = $("moves-filter").value.trim().toLowerCase();
  const buttons = moves.map((move, index) => {
    const label = labels[index] || fallbackLabel(move);
    return el("button", {
      type: "button", class: "move", "data-testid": "legal-move", dataset: { index: String(index) },
      hidden: !!filter && !label.toLowerCase().includes(filter),
      onclick: () => play(move, listing.version),
    }, label);
  });
  box.replaceChildren(...buttons);
  showAllMoves(moves.length);
  composer.show(listing && moves.length ? listing : null);
  markPlayable($("board"), moves.length ? listing.targets : []);
  if (!moves.length && game.status !== "finished") {
    const text = handedOver() ? "You left this seat: a bot plays it now."
      : who() === "spectator" ? "Spectators watch; open your seat's link to play."
      : who() === "referee" ? "The referee does not play; use the dispute desk." : "Nothing to decide for you now.";
    box.append(el("p", { class: "meta" }, text));
  }
}

// The full list, folded away unless short (a person's own opening or closing of it is kept for the tab).
function showAllMoves(count) {
  const box = $("all-moves");
  $("all-moves-summary").textContent = `Every legal move (${count})`;
  box.hidden = count === 0 && game.status === "finished";
  const chosen = sessionStorage.getItem("heirloom.all-moves");
  box.open = chosen !== null ? chosen === "1" : count <= 6;
}

// The caller's view of the state as nested lists (what the picture may not show yet).
function stateTree(value, depth = 0) {
  if (value === null || value === undefined) return el("span", { class: "meta" }, "—");
  if (typeof value !== "object") return document.createTextNode(String(value));
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  if (!entries.length) return el("span", { class: "meta" }, Array.isArray(value) ? "none" : "—");
  if (depth > 6) return document.createTextNode(JSON.stringify(value));
  if (Array.isArray(value) && entries.every(([, v]) => v === null || typeof v !== "object")) {
    return document.createTextNode(value.map((v) => (v === null ? "—" : String(v))).join(", "));
  }
  return el("ul", { class: "tree" }, entries.map(([key, v]) =>
    el("li", {}, el("span", { class: "key" }, `${key.replace(/_/g, " ")}: `), stateTree(v, depth + 1))));
}

function renderState() {
  if ($("state-box").open) $("state").replaceChildren(stateTree(game.state));
}

function renderScores() {
  const scores = game.scores || {};
  const winners = new Set(game.winners || []);
  const rows = names.map((name, seat) => el("tr", {},
    el("th", { scope: "row" }, el("span", { class: "swatch", style: `background:${SEAT_COLOURS[seat % 6]}` }),
      name, (game.bots || {})[String(seat)] ? ` (bot)` : "", winners.has(seat) ? el("span", { class: "winner-mark" }, "winner") : ""),
    el("td", { class: "num" }, String(scores[String(seat)] ?? scores[seat] ?? 0))));
  $("scores").replaceChildren(el("table", { class: "scores-table" },
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Player"), el("th", { scope: "col" }, "Score"))),
    el("tbody", {}, rows)));
}

function renderLog() {
  const list = $("move-log");
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 30;
  list.replaceChildren(...log.map((entry) => el("li", {
    dataset: { undone: entry.undone ? "true" : "false", moveNo: String(entry.move_no) },
    value: entry.move_no,
  }, moveWords(entry), undoToHereButton(entry))));
  if (atBottom) list.scrollTop = list.scrollHeight;
}

// ---- the referee's undo-to-here (issue 25.3): each effective move of the log offers it; it opens
// `undo-preview` (the moves that would go) with `confirm` and `cancel`. Nothing is undone unasked.

function undoToHereButton(entry) {
  if (who() !== "referee" || entry.undone || (game.table && game.table.undo_policy === "none")) return null;
  return el("button", { type: "button", class: "small undo-here", "data-testid": "undo-to-here",
    "aria-label": `Undo from move ${entry.move_no} on`, onclick: () => showUndoPreview(entry.move_no) }, "undo to here");
}

function showUndoPreview(moveNo) {
  const going = log.filter((entry) => !entry.undone && entry.move_no >= moveNo);
  const box = $("undo-preview");
  box.replaceChildren(el("div", {},
    el("h3", {}, `Undo from move ${moveNo} on?`),
    el("p", {}, going.length === 1 ? "This move would be taken back:" : `These ${going.length} moves would be taken back:`),
    el("ol", { class: "move-log preview" }, going.map((entry) => el("li", { value: entry.move_no },
      moveWords(entry)))),
    game.status === "finished" ? el("p", { class: "meta" }, "The game is over: this reopens it.") : null,
    el("div", { class: "buttons" },
      el("button", { type: "button", class: "primary", "data-testid": "confirm", onclick: () => confirmUndo(moveNo) },
        `Undo ${going.length} move${going.length === 1 ? "" : "s"}`),
      el("button", { type: "button", "data-testid": "cancel", onclick: closeUndoPreview }, "Cancel"))),
  );
  box.hidden = false;
  box.querySelector("[data-testid=confirm]").focus();
}

function closeUndoPreview() {
  $("undo-preview").hidden = true;
  $("undo-preview").replaceChildren();
}

async function confirmUndo(moveNo) {
  closeUndoPreview();
  await sendUndo(moveNo, token());
}

function myLastMove() {
  const seat = mySeat();
  for (let i = log.length - 1; i >= 0; i--) {
    if (!log[i].undone && log[i].seat === seat) return log[i];
  }
  return null;
}

function lastEffective() {
  for (let i = log.length - 1; i >= 0; i--) if (!log[i].undone) return log[i];
  return null;
}

function renderUndo() {
  const button = $("undo");
  const referee = who() === "referee";
  $("referee-undo").hidden = !referee;
  renderTableRules();
  if (referee) {
    const last = lastEffective();
    const input = $("undo-to");
    if (last) { input.max = String(last.move_no); if (!input.dataset.touched) input.value = String(last.move_no); }
    button.textContent = "Undo from this move on";
    button.disabled = !last;
  } else {
    const back = takeBack();
    button.textContent = back && back.seat !== mySeat() ? `Take back ${seatName(names, back.seat)}'s last move`
      : "Take back my last move";
    button.disabled = !back || game.status === "finished" || ["referee", "none"].includes(policy());
  }
}

// ---- passing a team step to the bots (TABLE-BOT-04): where any seat of the team may act, bots wait
// while a person has a decision; "done for now" lets them play, the team's decision included.

function renderPass() {
  const box = $("pass-box");
  const seat = mySeat();
  const bots = Object.keys(game.bots || {}).length;
  const decision = game.decision || {};
  if (!bots || seat === null || game.status === "finished" || decision.mode !== "team" || !(game.to_act || []).includes(seat)) {
    box.replaceChildren();
    return;
  }
  if ((game.passed || []).includes(seat)) {
    box.replaceChildren(el("p", { class: "meta", "data-testid": "passed" },
      "You passed: the bots play now (your next move takes the step back)."));
    return;
  }
  box.replaceChildren(el("p", { class: "meta" }, "The bots wait while you decide here."),
    el("button", { type: "button", "data-testid": "pass", onclick: passStep }, "Done for now: let the bots play"));
}

async function passStep() {
  try {
    await api(`/games/${gameId}/pass`, { token: token(), method: "POST" });
    say("You passed: the bots play now.", true);
  } catch (error) { say(errorText(error)); }
  await refresh();
}

// ---- one screen (hot seat, issue 25.7): after a move the screen hands over to the next seat, and the
// take-back stays with the seat that just moved, when this browser holds that seat too.

function takeBack() {
  const last = lastEffective();
  if (last && last.seat !== mySeat() && held.seats[String(last.seat)]) return { seat: last.seat, move: last };
  const mine = myLastMove();
  return mine ? { seat: mySeat(), move: mine } : null;
}

// ---- the table's rules (issue 25.4), as chosen in the lobby and shown by GET /games/{id} `table`

const POLICY_WORDS = {
  consent: "Take-backs by consent: a player takes back their own last move at once when nobody has acted since and it "
    + "revealed nothing hidden or random; anything else waits until every other player approves (bots answer at "
    + "once), or the referee decides. A request lapses when a move is played or after 10 minutes.",
  own_turn: "Take-backs in your own turn only: a player takes back the moves of their current turn until one reveals "
    + "something hidden or random; nothing else.",
  referee: "Only the referee takes moves back at this table.",
  none: "This table plays without take-backs.",
};

function policy() { return (game && game.table && game.table.undo_policy) || "consent"; }

function renderTableRules() {
  const analysis = game.table && game.table.analysis_during_play
    ? " Engine analysis is allowed during play." : " Engine analysis opens when the game is over.";
  $("undo-policy").textContent = (POLICY_WORDS[policy()] || "") + (game.status === "finished"
    ? " The game is over: its result stands." : "") + analysis;
  $("undo-policy").dataset.policy = policy();
}

function requesterSeat(request) {
  return request.by && request.by.startsWith("seat:") ? Number(request.by.slice(5)) : null;
}

// How the latest settled request ended, and why (a request never disappears silently: issue 25.3).
function settledLine() {
  const history = game.undo_history || [];
  const last = history[history.length - 1];
  if (!last) return null;
  const words = { applied: "was applied", rejected: "was rejected", expired: "expired" }[last.status] || last.status;
  return el("p", { class: "meta", "data-testid": "undo-settled", dataset: { status: last.status } },
    `${actorName(names, last.by)}'s request to undo from move ${last.to_move} ${words}`,
    last.outcome ? `: ${last.outcome}.` : ".");
}

function renderRequests() {
  const box = $("undo-requests");
  const requests = (game.undo_requests || []).filter((r) => r.status === "pending");
  if (!requests.length) {
    box.replaceChildren(...[el("p", { class: "meta" }, "No open request."), settledLine()].filter(Boolean));
    return;
  }
  box.replaceChildren(...requests.map((request) => {
    const from = requesterSeat(request);
    const approvals = new Set(request.approvals || request.votes || []);
    const voters = names.map((_, s) => s).filter((s) => s !== from);
    const waiting = Array.isArray(request.waiting_for) ? request.waiting_for  // the server's own answer
      : voters.filter((s) => !approvals.has(s));
    const me = mySeat();
    const buttons = [];
    if (who() === "referee" || (me !== null && me !== from && !approvals.has(me))) {
      buttons.push(el("button", { type: "button", "data-testid": "approve", onclick: () => vote(request, true) }, "Approve"));
      buttons.push(el("button", { type: "button", "data-testid": "reject", onclick: () => vote(request, false) }, "Reject"));
    } else if (me !== null && me === from) {
      buttons.push(el("button", { type: "button", "data-testid": "withdraw", onclick: () => vote(request, false) }, "Withdraw"));
    }
    const why = waiting.length
      ? `Pending: waiting for ${waiting.map((s) => seatName(names, s)).join(", ")} to approve (or the referee). `
        + "It is not applied at once because it is not the asker's own last move with nothing played or revealed since; "
        + "a move played meanwhile ends it."
      : "Pending.";
    return el("div", { class: "request", "data-testid": "undo-request", dataset: { requestId: request.request_id } },
      el("p", {}, el("strong", {}, actorName(names, request.by)),
        ` asks to undo move ${request.to_move} and every later one`, request.reason ? `: “${request.reason}”` : "."),
      el("p", { class: "meta" }, `Approved by: ${approvals.size ? [...approvals].map((s) => seatName(names, s)).join(", ") : "nobody yet"}.`),
      el("p", { class: "meta", "data-testid": "pending-why" }, why),
      buttons.length ? el("div", { class: "buttons" }, buttons) : null);
  }));
}

function renderAudit() { return showAudit($("audit"), gameId); }

// ---- reading the game

async function refresh() {
  if (busy) { again = true; return; }
  busy = true;
  try {
    do {
      again = false;
      await refreshOnce();
    } while (again);
  } finally { busy = false; }
}

async function refreshOnce() {
  let view;
  try {
    view = await api(`/games/${gameId}`, { token: token() });
  } catch (error) { say(errorText(error)); return; }
  // One screen: hand the screen to the seat that must act now.
  const seats = view.to_act || [];
  if (held.follow && Object.keys(held.seats).length > 1 && who() !== "referee" && view.status !== "finished") {
    const current = mySeat();
    if (current === null || !seats.includes(current)) {
      const next = seats.find((s) => held.seats[String(s)]);
      if (next !== undefined) {
        const uncovered = await handOver(current, next);
        if (uncovered) held.current = `seat:${next}`;
        saveHeld(gameId, held);
        fillViewerSelect();
        view = await api(`/games/${gameId}`, { token: token() });
      }
    }
  }
  game = view;
  if (Array.isArray(view.names) && JSON.stringify(view.names) !== JSON.stringify(names)) {
    names.splice(0, names.length, ...view.names);  // a player who joined chose a name
    fillViewerSelect();
  }
  const seat = mySeat();
  const [listing, moves, board] = await Promise.all([
    seat !== null && game.status !== "finished" && !handedOver()
      ? api(`/games/${gameId}/legal-moves`, { token: token() }).catch(() => null) : null,
    api(`/games/${gameId}/moves-log`, { token: token() }).catch(() => log),
    api(`/games/${gameId}/board.svg`, { token: token(), text: true }).catch(() => null),
  ]);
  if (listing && listing.version !== game.version) { again = true; }
  log = moves;
  $("status").textContent = game.status === "finished" ? "finished" : `running · move ${game.move_count}`;
  if (board) showBoard($("board"), $("board-text"), board, { game: root.dataset.game, onTarget: (key) => composer.narrow(key),
    glossary: () => api(`/games/${gameId}/glossary`, { token: token() }) });
  renderToAct();
  renderSeats($("seat-list"), game, names, mySeat(), leaveSeat);
  renderMoves(listing);
  renderScores();
  showFinalScores($("final-scores"), game, names);
  renderState();
  renderLog();
  renderUndo();
  renderPass();
  renderRequests();
  renderAudit();
}

// One screen: the device passes from seat `from` to seat `to`; a game where seats hold hidden information
// shows `pass-device` first. False when the seat that played took its move back from the cover instead.
let gameMeta = null;
async function handOver(from, to) {
  if (from === null || from === to) return true;
  if (gameMeta === null) {
    gameMeta = await api("/game-types").then((types) => types.find((t) => t.name === root.dataset.game) || {})
      .catch(() => ({}));
  }
  if (!coverFor(gameMeta)) return true;
  const fresh = await api(`/games/${gameId}/moves-log`, { token: held.seats[String(from)] }).catch(() => log);
  const last = [...fresh].reverse().find((entry) => !entry.undone && entry.seat === from);
  const takeBack = last && held.seats[String(from)] ? async () => {
    try {
      const answer = await api(`/games/${gameId}/undo`, {
        token: held.seats[String(from)], method: "POST", body: { to_move: last.move_no, reason: "" },
      });
      say(answer.status === "applied" ? `${seatName(names, from)} took back move ${last.move_no}.`
        : "Asked: the others must approve (or the referee).", true);
    } catch (error) { say(errorText(error)); }
  } : null;
  return passDevice({ name: seatName(names, to), previousName: seatName(names, from), takeBack });
}

// ---- acting

async function play(move, version) {
  if (playing) return;
  playing = true;
  for (const button of document.querySelectorAll("#legal-moves button")) button.disabled = true;
  try {
    const answer = await playMove(gameId, token(), move, version);
    say(answer.description || "", true);
  } catch (error) {
    say(errorText(error));
  } finally {
    playing = false;
    await refresh();
  }
}

async function leaveSeat() {
  try {
    const answer = await api(`/games/${gameId}/leave`, { token: token(), method: "POST" });
    say(`You left: a ${answer.bot || "normal"} bot plays your seat now, and the game no longer counts for ratings.`, true);
  } catch (error) { say(errorText(error)); }
  await refresh();
}

async function askUndo() {
  if (who() === "referee") { showUndoPreview(Number($("undo-to").value)); return; }
  const back = takeBack();
  if (!back) return;
  await sendUndo(back.move.move_no, tokenOf(held, `seat:${back.seat}`));
}

async function sendUndo(target, asToken) {
  if (!target) return;
  try {
    const answer = await api(`/games/${gameId}/undo`, {
      token: asToken, method: "POST", body: { to_move: target, reason: $("undo-reason").value.trim() },
    });
    say(answer.status === "applied" ? `Undone from move ${target}.`
      : answer.status === "rejected" ? `Not taken back: ${answer.outcome || "rejected"}.`
        : "Asked: the others must approve (or the referee).", answer.status !== "rejected");
    $("undo-reason").value = "";
    delete $("undo-to").dataset.touched;
  } catch (error) { say(errorText(error)); }
  await refresh();
}

async function vote(request, approve) {
  try {
    const answer = await api(`/games/${gameId}/undo/${request.request_id}/votes`, {
      token: token(), method: "POST", body: { approve },
    });
    say(`The request is ${answer.status}.`, true);
  } catch (error) { say(errorText(error)); }
  await refresh();
}

// ---- wiring

$("viewer").addEventListener("change", (event) => {
  held.current = event.target.value;
  const wasFollowing = held.follow && Object.keys(held.seats).length > 1;
  held.follow = false;
  saveHeld(gameId, held);
  fillViewerSelect();
  if (wasFollowing) say("You chose who to play as: the table no longer follows the seat to act (tick “follow” to turn it back on).");
  refresh();
});
$("follow").addEventListener("change", (event) => {
  held.follow = event.target.checked;
  saveHeld(gameId, held);
  refresh();
});
$("moves-filter").addEventListener("input", () => {
  const filter = $("moves-filter").value.trim().toLowerCase();
  for (const button of document.querySelectorAll("#legal-moves button")) {
    button.hidden = !!filter && !button.textContent.toLowerCase().includes(filter);
  }
});
$("undo").addEventListener("click", askUndo);
wireNotify($("notify"), say);
$("all-moves-summary").addEventListener("click", () => {   // a person's choice, not the page's default
  setTimeout(() => sessionStorage.setItem("heirloom.all-moves", $("all-moves").open ? "1" : "0"), 0);
});
$("state-box").addEventListener("toggle", () => { if (game) renderState(); });
$("undo-to").addEventListener("input", (event) => { event.target.dataset.touched = "1"; });
$("copy-link").addEventListener("click", async () => {
  const link = `${location.origin}/ui/games/${gameId}#token=${token()}`;
  try { await navigator.clipboard.writeText(link); say("Your private link is copied: keep it to yourself.", true); }
  catch (e) { say("Copying is not allowed here."); }
});

(async function start() {
  if (!(await adoptLinkToken(gameId, held))) {
    say("The token in this link is not valid for this game; you are watching as a spectator.");
  }
  if (!held.current) held.current = viewers(held)[0] || "spectator";
  saveHeld(gameId, held);
  fillViewerSelect();
  await refresh();
  let timer = null;
  follow(gameId, {
    mode: root.dataset.live, after: game ? game.version : 0, token: () => (mySeat() !== null ? token() : null),
    onEvent: () => { clearTimeout(timer); timer = setTimeout(refresh, 60); },
    onState: (text) => { $("live-state").textContent = text === "live" ? "● live" : text; },
  });
  setInterval(refresh, 20000); // belt and braces if a stream is held up by a proxy
})();
