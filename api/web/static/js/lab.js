// The lab (/ui/lab/{game}): start a simulation, follow it, and read the report of
// GET /analytics/{game}/report as charts and a sortable table (README "The lab").
import { api, el, errorText, SEAT_COLOURS } from "./api.js";

const root = document.getElementById("lab");
const game = root.dataset.game;
const levels = JSON.parse(root.dataset.levels || "[]");
const $ = (id) => document.getElementById(id);
const ns = "http://www.w3.org/2000/svg";
let features = [];
let sortKey = "delta";
let sortDown = true;
let showAll = false;
const SHOWN = 25;   // rows before "show all": the largest differences first

function svgNode(tag, attrs, text) {
  const node = document.createElementNS(ns, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

const pct = (x) => (x === null || x === undefined ? "–" : `${Math.round(x * 1000) / 10}%`);

function seatBots() {
  const players = Math.max(Number(root.dataset.min), Math.min(Number(root.dataset.max), Number($("sim-players").value) || 2));
  const box = $("sim-bots");
  const kept = [...box.querySelectorAll("select")].map((s) => s.value);
  box.replaceChildren(el("legend", {}, "Bot on each seat"), ...Array.from({ length: players }, (_, seat) => el("p", {},
    el("label", { for: `sim-bot-${seat}` }, `Seat ${seat + 1}`), " ",
    el("select", { id: `sim-bot-${seat}`, name: `bot-${seat}` },
      ...levels.map((level) => el("option", { value: level, selected: (kept[seat] || "normal") === level }, level))))));
}

function advantageChart(report) {
  const rows = report.seat_advantage || [];
  const W = 460, rowH = 34, left = 70, right = 20, top = 10;
  const H = top + rowH * Math.max(rows.length, 1) + 30;
  const plot = W - left - right;
  const svg = svgNode("svg", { viewBox: `0 0 ${W} ${H}`, width: "100%", role: "img",
    "aria-label": "Win rate of each seat with its 95% interval" });
  for (const p of [0, 0.25, 0.5, 0.75, 1]) {
    const x = left + p * plot;
    svg.append(svgNode("line", { x1: x, x2: x, y1: top, y2: H - 24, stroke: "#e3e3e3" }));
    svg.append(svgNode("text", { x, y: H - 8, "font-size": 13, "text-anchor": "middle", fill: "#555" }, `${p * 100}%`));
  }
  const fair = report.cooperative ? null : 1 / Math.max(rows.length, 1);
  if (fair) svg.append(svgNode("line", { x1: left + fair * plot, x2: left + fair * plot, y1: top, y2: H - 24,
    stroke: "#7a4b00", "stroke-dasharray": "4 3" }));
  rows.forEach((row, i) => {
    const y = top + i * rowH;
    const colour = SEAT_COLOURS[i % SEAT_COLOURS.length];
    svg.append(svgNode("text", { x: left - 8, y: y + 21, "font-size": 14, "text-anchor": "end" }, `Seat ${row.seat + 1}`));
    svg.append(svgNode("rect", { x: left, y: y + 6, width: Math.max(0, (row.win_rate || 0) * plot), height: 20, fill: colour,
      opacity: 0.8, "data-seat": row.seat }));
    const [lo, hi] = row.ci95 || [0, 1];
    svg.append(svgNode("line", { x1: left + lo * plot, x2: left + hi * plot, y1: y + 16, y2: y + 16, stroke: "#111", "stroke-width": 2 }));
    for (const v of [lo, hi]) svg.append(svgNode("line", { x1: left + v * plot, x2: left + v * plot, y1: y + 10, y2: y + 22, stroke: "#111", "stroke-width": 2 }));
    svg.append(svgNode("title", {}, `Seat ${row.seat + 1}: ${pct(row.win_rate)} of ${row.n} games (95%: ${pct(lo)} to ${pct(hi)})`));
  });
  return svg;
}

function lengthChart(report) {
  const bins = (report.length || {}).histogram || [];
  const W = 460, H = 200, left = 40, bottom = 34, top = 10;
  const plot = W - left - 10, plotH = H - top - bottom;
  const most = Math.max(1, ...bins.map((b) => b.games));
  const svg = svgNode("svg", { viewBox: `0 0 ${W} ${H}`, width: "100%", role: "img", "aria-label": "Games by length in moves" });
  const w = plot / Math.max(bins.length, 1);
  bins.forEach((bin, i) => {
    const h = (bin.games / most) * plotH;
    svg.append(svgNode("rect", { x: left + i * w + 1, y: top + plotH - h, width: Math.max(1, w - 2), height: h, fill: "#3b6ea5",
      "data-games": bin.games }));
    svg.append(svgNode("title", {}, `${bin.from}–${bin.to} moves: ${bin.games} games`));
    if (i % Math.ceil(bins.length / 6) === 0) svg.append(svgNode("text", { x: left + i * w, y: H - 14, "font-size": 12, fill: "#555" }, String(bin.from)));
  });
  svg.append(svgNode("text", { x: 4, y: top + 12, "font-size": 12, fill: "#555" }, String(most)));
  return svg;
}

function showFeatures() {
  const sorted = [...features].sort((a, b) => {
    const x = a[sortKey], y = b[sortKey];
    const order = typeof x === "string" ? x.localeCompare(y) : (sortKey === "delta" ? Math.abs(x) - Math.abs(y) : x - y);
    return sortDown ? -order : order;
  });
  for (const button of $("feature-impact").querySelectorAll("th button")) {
    if (button.dataset.sort === sortKey) button.setAttribute("aria-sort", sortDown ? "descending" : "ascending");
    else button.removeAttribute("aria-sort");
  }
  const more = $("feature-more");
  more.hidden = sorted.length <= SHOWN;
  more.textContent = showAll ? `Show the first ${SHOWN}` : `Show all ${sorted.length}`;
  $("feature-impact").querySelector("tbody").replaceChildren(...sorted.slice(0, showAll ? sorted.length : SHOWN).map((f) => el("tr", {
    dataset: { key: f.key }, class: f.ci95[0] > 0 ? "helps" : f.ci95[1] < 0 ? "hurts" : "unclear" },
    el("th", { scope: "row" }, f.name), el("td", {}, f.kind), el("td", {}, `${f.games_with} of ${f.games_with + f.games_without}`),
    el("td", {}, pct(f.win_rate_with)), el("td", {}, pct(f.win_rate_without)),
    el("td", {}, `${f.delta > 0 ? "+" : ""}${pct(f.delta)} (${pct(f.ci95[0])} to ${pct(f.ci95[1])})`))));
}

async function loadReport() {
  const form = new FormData($("filters"));
  const query = new URLSearchParams();
  for (const [k, v] of form.entries()) if (v) query.set(k, v);
  try {
    const report = await api(`/analytics/${game}/report?${query}`);
    const seats = report.seat_advantage || [];
    const first = seats[0];
    $("report-summary").textContent = report.games
      ? `${report.games} finished game${report.games === 1 ? "" : "s"}; a game lasts ${Math.round(report.length.p50)} moves `
        + `(the median; 80% of games last ${Math.round(report.length.p10)} to ${Math.round(report.length.p90)})`
        + (first && !report.cooperative ? `; the first seat wins ${pct(first.win_rate)} (95%: ${pct(first.ci95[0])} to ${pct(first.ci95[1])}).` : ".")
      : "No finished game matches: start a simulation, or change the filters.";
    $("seat-advantage").replaceChildren(advantageChart(report));
    $("length-histogram").replaceChildren(lengthChart(report));
    features = report.features || [];
    showFeatures();
  } catch (error) { $("report-summary").textContent = `No report: ${errorText(error)}`; }
}

async function follow(id) {
  $("simulation-progress").hidden = false;
  for (;;) {
    let status;
    try { status = await api(`/simulations/${id}`); } catch (error) { $("sim-state").textContent = errorText(error); return; }
    $("sim-bar").value = status.progress || 0;
    $("sim-state").textContent = `Simulation ${id}: ${status.games_done} of ${status.games} games played (${status.status})`
      + (status.games_failed ? `, ${status.games_failed} failed` : "");
    if (status.status === "done" || status.status === "failed") {
      $("f-simulation").value = id;
      await loadReport();
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

$("sim-players").addEventListener("input", seatBots);
$("simulate-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const players = Number($("sim-players").value);
  const bots = [...$("sim-bots").querySelectorAll("select")].map((s) => s.value);
  const body = { game, players, bots, games: Number($("sim-games").value) };
  if ($("sim-seed").value) body.seed = Number($("sim-seed").value);
  $("message").textContent = "";
  try {
    const started = await api("/simulations", { method: "POST", body });
    follow(started.id);
  } catch (error) { $("message").textContent = errorText(error); }
});
$("feature-more").addEventListener("click", () => { showAll = !showAll; showFeatures(); });
$("filters").addEventListener("submit", (event) => { event.preventDefault(); loadReport(); });
for (const button of $("feature-impact").querySelectorAll("th button")) {
  button.addEventListener("click", () => {
    if (sortKey === button.dataset.sort) sortDown = !sortDown; else { sortKey = button.dataset.sort; sortDown = true; }
    showFeatures();
  });
}
seatBots();
loadReport();
