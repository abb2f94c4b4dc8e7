// The replay viewer: any step of a game, for the chosen viewer; the address bar follows.
import {
  adoptLinkToken, boardZoom, api, el, errorText, fallbackLabel, loadHeld, seatName, showAudit, showSvg, tokenOf, viewers,
} from "./api.js";
import { follow } from "./live.js";

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

function say(text) { $("message").textContent = text || ""; }
function token() { return tokenOf(held, viewAs); }
function fillViewAs() {
  const options = ["spectator", ...viewers(held)];
  const label = (v) => v === "spectator" ? (finished ? "Everyone (the game is over)" : "Spectator")
    : v === "referee" ? "Referee" : `${seatName(names, Number(v.slice(5)))} (seat ${v.slice(5)})`;
  $("view-as").replaceChildren(...options.map((v) => el("option", { value: v, selected: v === viewAs }, label(v))));
}

function entryText(entry) { return `${entry.description || fallbackLabel(entry.move)}`; }

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
    dataset: { undone: "true", step: String(Math.max(0, Math.min(entry.move_no - 1, steps))) }, tabindex: "0",
    title: "Undone: go to the position it was played from",
    onclick: () => go(Math.max(0, Math.min(entry.move_no - 1, steps)), `Undone move ${entry.move_no}: ${entryText(entry)}`),
  }, `move ${entry.move_no}: ${entryText(entry)}`)));
  fillViewAs();
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
  try {
    const [answer, board] = await Promise.all([
      api(`/games/${gameId}/replay?step=${n}`, { token: token() }),
      api(`/games/${gameId}/board.svg?step=${n}`, { token: token(), text: true }),
    ]);
    if (mine !== sequence) return; // a later step was asked for meanwhile
    $("description").textContent = note || (n === 0 ? "" : answer.description || fallbackLabel(answer.move));
    showSvg($("board"), board);
    say("");
  } catch (error) {
    if (mine === sequence) say(errorText(error));
  }
}

async function audit() {
  const result = await showAudit($("audit"), gameId);
  if (result) lastVersion = result.events;
}

$("first").addEventListener("click", () => go(0));
$("prev").addEventListener("click", () => go(step - 1));
$("next").addEventListener("click", () => go(step + 1));
$("last").addEventListener("click", () => go(steps));
$("slider").addEventListener("input", (event) => go(Number(event.target.value)));
$("view-as").addEventListener("change", async (event) => {
  viewAs = event.target.value;
  try { await loadHistory(); } catch (error) { say(errorText(error)); }
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
  await loadChart();
  await go(step);
  await audit();
  if (!finished) {
    let timer = null;
    follow(gameId, {
      after: lastVersion, mode: root.dataset.live,
      onEvent: () => {
        clearTimeout(timer);
        timer = setTimeout(async () => {
          const atEnd = step === steps;
          try { await loadHistory(); } catch (error) { return; }
          await loadChart();
          if (atEnd) go(steps); else markList();
          audit();
        }, 150);
      },
    });
  }
})();
