// The replay viewer: any step of a game, for the chosen viewer; the address bar follows.
import {
  adoptLinkToken, boardZoom, api, el, errorText, fallbackLabel, moveWords, loadHeld, seatName, showAudit, showSvg, tokenOf, viewers,
  SEAT_COLOURS,
} from "./api.js";
import { follow } from "./live.js";
import { reviewTools, sharedReview } from "./review.js";
import { showBoard } from "./board.js";
import { showFinalScores } from "./endgame.js";

const root = document.getElementById("replay");
const gameId = root.dataset.gameId;
const names = JSON.parse(root.dataset.names || "[]");
const $ = (id) => document.getElementById(id);
boardZoom(document.getElementById("board-zoom"), document.getElementById("board"));
const held = loadHeld(gameId);
let viewAs = "spectator";
let steps = 0;
let step = 0;
let finished = false;
let sequence = 0;
let chart = null;
let lastVersion = 0;
const stepListeners = [];

function say(text) { $("message").textContent = text || ""; }
function token() { return tokenOf(held, viewAs); }
function fillViewAs() {
  const options = ["spectator", ...viewers(held)];
  const label = (v) => v === "spectator" ? (finished ? "Everyone (the game is over)" : "Spectator")
    : v === "referee" ? "Referee" : `${seatName(names, Number(v.slice(5)))} (seat ${v.slice(5)})`;
  $("view-as").replaceChildren(...options.map((v) => el("option", { value: v, selected: v === viewAs }, label(v))));
}

function entryText(entry) { return moveWords(entry); }

async function loadHistory() {
  const history = await api(`/games/${gameId}/history`, { token: token() });
  steps = history.steps;
  finished = history.finished;
  $("steps").textContent = String(steps);
  $("slider").max = String(steps);
  $("move-list").replaceChildren(...history.effective.map((entry, index) => el("li", {
    dataset: { step: String(index + 1), undone: "false" }, value: index + 1, tabindex: "0",
    title: `Go to step ${index + 1}`,
    onclick: () => go(index + 1),
    onkeydown: (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); go(index + 1); } },
  }, entryText(entry))));
  const undone = history.undone || [];
  $("undone-h").hidden = !undone.length;
  $("undone-list").replaceChildren(...undone.map((entry) => el("li", {
    dataset: { undone: "true", jump: String(Math.max(0, Math.min(entry.move_no - 1, steps))) }, tabindex: "0",
    title: "Undone: go to the position it was played from",
    onclick: () => go(Math.max(0, Math.min(entry.move_no - 1, steps)), `Undone move ${entry.move_no}: ${entryText(entry)}`),
  }, `move ${entry.move_no}: ${entryText(entry)}`)));
  fillViewAs();
  if (analysis && analysis.status === "done") gradeMoveList(analysis);
}

async function loadChart() {
  try {
    const svg = await api(`/ui/games/${gameId}/score-chart.svg?step=${step}`, { text: true });
    chart = showSvg($("chart"), svg);
  } catch (error) { $("chart").textContent = `No score chart: ${errorText(error)}`; }
}

function markChart() {
  if (!chart) return;
  const marker = chart.querySelector("[data-role=step-marker]");
  const left = Number(chart.dataset.left), width = Number(chart.dataset.plotWidth);
  const last = Number(chart.dataset.last) || 1;
  if (!marker) return;
  const x = left + (Math.min(step, last) / last) * width;
  marker.setAttribute("x1", String(x));
  marker.setAttribute("x2", String(x));
}

// ---- engine analysis (POST/GET /games/{id}/analysis): win chances per step and mistakes

let analysis = null;
let polling = null;

function advantageChart(result) {
  const W = 520, H = 220, left = 44, right = 110, top = 26, bottom = 30;
  const plotW = W - left - right, plotH = H - top - bottom;
  const points = result.steps || [];
  const last = Math.max(1, points.length ? points[points.length - 1].step : 1);
  const ns = "http://www.w3.org/2000/svg";
  const node = (tag, attrs, text) => {
    const e = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const svg = node("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img",
    "data-testid": "advantage-chart", "data-left": left, "data-plot-width": plotW, "data-last": last });
  svg.append(node("title", {}, "Each player's chance to win after every step, as the engine sees it"));
  svg.append(node("rect", { x: 0, y: 0, width: W, height: H, fill: "#fff" }));
  svg.append(node("text", { x: left, y: 18, "font-size": 15, "font-weight": "bold" }, "Chance to win"));
  for (const p of [0, 0.5, 1]) {
    const y = top + plotH - p * plotH;
    svg.append(node("line", { x1: left, x2: left + plotW, y1: y, y2: y, stroke: "#e3e3e3" }));
    svg.append(node("text", { x: left - 6, y: y + 4, "font-size": 12, "text-anchor": "end", fill: "#555" }, `${p * 100}%`));
  }
  const seats = points.length ? Object.keys(points[0].win_probability || {}).sort((a, b) => a - b) : [];
  seats.forEach((seat, index) => {
    const colour = SEAT_COLOURS[index % SEAT_COLOURS.length];
    const xy = points.map((p) => `${left + (p.step / last) * plotW},${top + plotH - (p.win_probability[seat] || 0) * plotH}`);
    svg.append(node("polyline", { points: xy.join(" "), fill: "none", stroke: colour, "stroke-width": 2.5,
      "stroke-dasharray": index % 2 ? "6 3" : "none" }));
    const ly = top + 14 + 20 * index;
    svg.append(node("line", { x1: left + plotW + 10, x2: left + plotW + 30, y1: ly - 4, y2: ly - 4, stroke: colour, "stroke-width": 3 }));
    svg.append(node("text", { x: left + plotW + 36, y: ly, "font-size": 13 }, seatName(names, Number(seat))));
  });
  for (const point of result.turning_points || []) {       // the moves that swung the eventual winner's chance
    const x = left + (point.move_no / last) * plotW;
    const mark = node("g", { "data-role": "turning-point", "data-step": point.move_no });
    mark.append(node("title", {}, point.text || `Turning point: move ${point.move_no}`));
    mark.append(node("line", { x1: x, x2: x, y1: top, y2: top + plotH, stroke: "#7a4b00", "stroke-dasharray": "3 3" }));
    mark.append(node("text", { x, y: top - 6, "font-size": 12, "text-anchor": "middle", fill: "#7a4b00" }, "!"));
    svg.append(mark);
  }
  svg.append(node("line", { "data-role": "step-marker", x1: left, x2: left, y1: top, y2: top + plotH, stroke: "#b00020", "stroke-width": 2 }));
  // A click (or a tap) anywhere on the plot jumps to the nearest step.
  svg.style.cursor = "pointer";
  svg.addEventListener("click", (event) => {
    const box = svg.getBoundingClientRect();
    const x = ((event.clientX - box.left) / box.width) * W;
    go(Math.round(Math.max(0, Math.min(1, (x - left) / plotW)) * last));
  });
  return svg;
}

// lichess's signs for graded moves.
const GRADE_SIGNS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

function percent(x) { return `${Math.round((x || 0) * 100)}%`; }

function mistakeItem(m) {
  const who = seatName(names, m.seat);
  const cost = m.kind === "score"
    ? `about ${m.points} points of final score (${Math.round(m.score_after)} instead of ${Math.round(m.score_before)})`
    : `chance to win ${percent(m.win_before)} → ${percent(m.win_after)}`;
  const link = el("a", { href: `?step=${m.move_no}`, onclick: (event) => { event.preventDefault(); go(m.move_no); } },
    `move ${m.move_no}`);
  return el("li", { dataset: { step: String(m.move_no), grade: m.grade, kind: m.kind || "win" } },
    el("span", { class: `grade grade-${m.grade}` }, `${GRADE_SIGNS[m.grade] || ""} ${m.grade}`), " — ", link,
    `, ${who}: `, el("span", { class: "played" }, `played “${m.played_label}”`),
    el("span", { class: "better" }, `; better: “${m.better_label}”`), el("span", { class: "cost" }, ` (${cost})`));
}

function gradeMoveList(result) {
  const graded = new Map((result.mistakes || []).map((m) => [String(m.move_no), m]));
  for (const item of $("move-list").children) {
    const m = graded.get(item.dataset.step);
    item.querySelector(".grade-sign")?.remove();
    if (!m) { delete item.dataset.grade; continue; }
    item.dataset.grade = m.grade;
    item.append(el("span", { class: `grade-sign grade-${m.grade}`, title: `${m.grade}: better was “${m.better_label}”` },
      ` ${GRADE_SIGNS[m.grade] || ""}`));
  }
}

function showAnalysis(result) {
  analysis = result;
  const status = result.status;
  $("analyse").hidden = status === "queued" || status === "running" || status === "done" || !!result.locked;
  if (result.locked && status !== "done") { $("analysis-state").textContent = result.locked_detail || ""; return; }
  if (status === "queued" || status === "running") {
    $("analysis-state").textContent = `The engine is thinking… ${Math.round((result.progress || 0) * 100)}%`;
    return;
  }
  if (status === "failed") { $("analysis-state").textContent = "The analysis failed; try again."; return; }
  if (status !== "done") return;
  const accuracy = Object.entries(result.accuracy || {}).filter(([, a]) => a !== null)
    .map(([seat, a]) => `${seatName(names, Number(seat))} ${a}%`).join(", ");
  $("analysis-state").textContent = ((result.mistakes || []).length
    ? "The moves the engine would have played otherwise (?! inaccuracy, ? mistake, ?? blunder):"
    : "The engine found no mistake.") + (accuracy ? ` Accuracy: ${accuracy}.` : "");
  $("advantage").replaceChildren(advantageChart(result));
  $("turning-points").replaceChildren(...(result.turning_points || []).map((point) => el("li", {},
    el("a", { href: `?step=${point.move_no}`, onclick: (event) => { event.preventDefault(); go(point.move_no); } },
      point.text))));
  $("turning-h").hidden = !(result.turning_points || []).length;
  $("mistakes").replaceChildren(...(result.mistakes || []).map(mistakeItem));
  gradeMoveList(result);
  markAnalysis();
}

function markAnalysis() {
  const svg = $("advantage").querySelector("svg");
  if (!svg) return;
  const marker = svg.querySelector("[data-role=step-marker]");
  const x = Number(svg.dataset.left) + (Math.min(step, Number(svg.dataset.last)) / Number(svg.dataset.last)) * Number(svg.dataset.plotWidth);
  marker.setAttribute("x1", String(x));
  marker.setAttribute("x2", String(x));
}

// TABLE-ANALYSIS-01: no engine help during play. While a game runs its analysis is locked unless
// its table allows it (or it is a fork or practice game): the page then says so and asks nothing.
async function analysisOpen() {
  if (finished) return true;
  try {
    const view = await api(`/games/${gameId}`, { token: token() });
    const table = view.table || {};
    return Boolean(table.analysis_during_play || table.practice || view.forked_from);
  } catch (error) { return false; }
}

async function loadAnalysisIfOpen() {
  if (await analysisOpen()) { $("analyse").hidden = false; loadAnalysis(false); return; }
  $("analyse").hidden = true;
  $("analysis-state").textContent = "The engine's analysis opens when the game is over (no engine help during play).";
}

async function loadAnalysis(start = false) {
  try {
    const result = start
      ? await api(`/games/${gameId}/analysis`, { token: token(), method: "POST" })
      : await api(`/games/${gameId}/analysis`, { token: token() });
    if (start || result.status === "queued" || result.status === "running") {
      clearTimeout(polling);
      polling = setTimeout(() => loadAnalysis(false), 1000);
    }
    if (!start) showAnalysis(result); else showAnalysis({ ...result, steps: [], mistakes: [] });
  } catch (error) {
    $("analysis-state").textContent = `No analysis: ${errorText(error)}`;
  }
}

function markList() {
  for (const item of $("move-list").children) {
    if (Number(item.dataset.step) === step) {
      item.setAttribute("aria-current", "step");
      item.scrollIntoView({ block: "nearest" });
    } else item.removeAttribute("aria-current");
  }
}

async function go(target, note = "") {
  const n = Math.max(0, Math.min(Number.isFinite(target) ? target : 0, steps));
  const mine = ++sequence;
  step = n;
  $("step").textContent = String(n);
  $("slider").value = String(n);
  history.replaceState(history.state, "", `${location.pathname}?step=${n}`);
  markList();
  markChart();
  markAnalysis();
  for (const listener of stepListeners) listener.stepChanged(n);
  try {
    const [answer, board] = await Promise.all([
      api(`/games/${gameId}/replay?step=${n}`, { token: token() }),
      api(`/games/${gameId}/board.svg?step=${n}`, { token: token(), text: true }),
    ]);
    if (mine !== sequence) return; // a later step was asked for meanwhile
    $("description").textContent = note || (n === 0 ? "" : moveWords(answer));
    showBoard($("board"), $("board-text"), board, { game: root.dataset.game,
      glossary: () => api(`/games/${gameId}/glossary`, { token: token() }) });
    await showEnd(n);
    say("");
  } catch (error) {
    if (mine === sequence) say(errorText(error));
  }
}

// `final-scores` at the last step of a finished game (the game's answer is read once).
let ended = null;
async function showEnd(n) {
  const box = $("final-scores");
  if (!finished || n !== steps) { box.hidden = true; return; }
  if (ended === null) ended = await api(`/games/${gameId}`, { token: token() }).catch(() => ({}));
  showFinalScores(box, ended, names);
}

async function audit() {
  const result = await showAudit($("audit"), gameId);
  if (result) lastVersion = result.events;
}

$("first").addEventListener("click", () => go(0));
$("analyse").addEventListener("click", () => loadAnalysis(true));
$("prev").addEventListener("click", () => go(step - 1));
$("next").addEventListener("click", () => go(step + 1));
$("last").addEventListener("click", () => go(steps));
$("slider").addEventListener("input", (event) => go(Number(event.target.value)));
$("view-as").addEventListener("change", async (event) => {
  viewAs = event.target.value;
  try { await loadHistory(); } catch (error) { say(errorText(error)); }
  $("advantage").replaceChildren();
  $("mistakes").replaceChildren();
  $("turning-points").replaceChildren();
  analysis = null;
  gradeMoveList({});
  loadAnalysisIfOpen();
  go(step);
});
document.addEventListener("keydown", (event) => {
  const target = event.target;
  if (target && (target.matches("input, select, textarea") || target.isContentEditable)) return;
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const moves = { ArrowRight: step + 1, ArrowLeft: step - 1, Home: 0, End: steps };
  if (event.key in moves) { event.preventDefault(); go(moves[event.key]); }
});

(async function start() {
  if (!(await adoptLinkToken(gameId, held))) say("The token in this link is not valid for this game.");
  viewAs = held.current && held.current !== "spectator" ? held.current : "spectator";
  try { await loadHistory(); } catch (error) { say(errorText(error)); return; }
  const asked = root.dataset.step === "" ? steps : Number(root.dataset.step);
  step = Math.max(0, Math.min(asked, steps));
  const ctx = { gameId, names, token, go, step: () => step, finished: () => finished, say };
  stepListeners.push(reviewTools(ctx));
  if (root.dataset.review) stepListeners.push(sharedReview(root.dataset.review, ctx));
  await loadChart();
  await go(step);
  await audit();
  loadAnalysisIfOpen();
  if (!finished) {
    let timer = null;
    follow(gameId, {
      after: lastVersion, mode: root.dataset.live,
      onEvent: () => {
        clearTimeout(timer);
        timer = setTimeout(async () => {
          const atEnd = step === steps;
          try { await loadHistory(); } catch (error) { return; }
          if (finished && !analysis) loadAnalysisIfOpen();   // the game just ended: the engine may speak
          await loadChart();
          if (atEnd) go(steps); else markList();
          audit();
        }, 150);
      },
    });
  }
})();
