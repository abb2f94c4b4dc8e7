// The board: the game's picture lifted into zones a person reads at their real size (issue 24).
//
// The server sends one SVG (GET /games/{id}/board.svg). A picture drawn as zones (a root with
// data-board="zones", each zone a nested <svg data-zone>) is shown as one `board-zone` per zone, each at
// its own size in CSS px, laid out by CSS (stacked on a phone, in columns on a desktop). Every element
// with data-detail becomes a focusable button that opens `detail`; the page marks those a legal move
// involves (data-target in the listing's targets) data-playable="true". `board-text` is the same board
// in words: per zone a heading and a list, one item per drawn group or line.
import { el, showSvg } from "./api.js";
import { openDetail } from "./detail.js";

const SVG_NS = "http://www.w3.org/2000/svg";

// Show `svgText` in `container` and its words in `textBox`. `game` names the glossary (`glossary`, when
// given, loads this game's glossary as the viewer reads it: GET /games/{id}/glossary);
// `onTarget(key, element)` is asked first when a playable element is chosen (true: handled).
export function showBoard(container, textBox, svgText, { game, onTarget = null, glossary = null } = {}) {
  const doc = new DOMParser().parseFromString(svgText, "image/svg+xml");
  const root = doc.documentElement;
  if (!root || root.nodeName !== "svg") { container.textContent = "The picture could not be read."; return; }
  const zones = root.getAttribute("data-board") === "zones" ? [...root.children].filter((n) => n.nodeName === "svg") : [];
  if (!zones.length) {
    showSvg(container, svgText);
    if (textBox) textBox.replaceChildren(el("p", {}, root.querySelector("title")?.textContent || "The board"));
  } else {
    container.classList.add("zoned");
    container.replaceChildren(...zones.map((zone) => zoneElement(zone)));
    if (textBox) textBox.replaceChildren(...zones.map((zone) => zoneText(zone)));
  }
  const zoom = container.parentElement && container.parentElement.querySelector(".zoom");
  if (zoom) zoom.hidden = zones.length > 0;     // zones are drawn at their real size: nothing to zoom
  for (const node of container.querySelectorAll("script, foreignObject")) node.remove();
  for (const node of container.querySelectorAll("[data-detail], [data-target]")) {
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
  }
  wire(container, game, onTarget, glossary);
}

function zoneElement(zone) {
  const svg = document.importNode(zone, true);
  svg.setAttribute("xmlns", SVG_NS);
  svg.removeAttribute("x");
  svg.removeAttribute("y");
  svg.setAttribute("role", "group");
  const title = zone.getAttribute("data-title") || "";
  svg.setAttribute("aria-label", title);
  const wrap = el("section", { class: "board-zone", "data-testid": "board-zone", "aria-label": title,
    dataset: { zone: zone.getAttribute("data-zone") || "" } });
  wrap.append(svg);
  return wrap;
}

// A zone as a heading and a list: each top-level group (its aria-label) or text line is one item.
function zoneText(zone) {
  const items = [];
  for (const node of zone.children) {
    if (node.nodeName === "g") {
      const words = node.getAttribute("aria-label") || node.textContent.trim();
      if (words) items.push(words);
    } else if (node.nodeName === "text" && node.textContent.trim()) items.push(node.textContent.trim());
  }
  return el("section", { "data-zone": zone.getAttribute("data-zone") || "" },
    el("h3", {}, zone.getAttribute("data-title") || ""),
    el("ul", {}, items.map((words) => el("li", {}, words))));
}

function wire(container, game, onTarget, glossary) {
  if (container.dataset.wired) { container._board = { game, onTarget, glossary }; return; }
  container.dataset.wired = "1";
  container._board = { game, onTarget, glossary };
  const activate = (node) => {
    const { game: g, onTarget: handler, glossary: live } = container._board;
    const key = node.getAttribute("data-detail");
    const target = node.getAttribute("data-target");
    if (node.getAttribute("data-playable") === "true" && handler && handler(target, node)) return;
    if (key) openDetail(g, key, node, node.getAttribute("aria-label") || "", live);
  };
  container.addEventListener("click", (event) => {
    const node = event.target.closest("[data-detail], [data-target]");
    if (node && container.contains(node)) activate(node);
  });
  container.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    const node = event.target.closest("[data-detail], [data-target]");
    if (node && container.contains(node)) { event.preventDefault(); activate(node); }
  });
}

// Mark the elements that a legal move of this seat involves (the union of the listing's targets).
export function markPlayable(container, targets) {
  const keys = new Set((targets || []).flat());
  for (const node of container.querySelectorAll("[data-target]")) {
    if (keys.has(node.getAttribute("data-target"))) node.setAttribute("data-playable", "true");
    else node.removeAttribute("data-playable");
  }
}
