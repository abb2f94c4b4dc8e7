// The `detail` popup: what a card, tile, space, location, character or token of the board is and does.
//
// Its words come from GET /game-types/{game}/glossary (read once per page), or, on a table or a replay,
// from GET /games/{id}/glossary as the viewer reads it now (a game that hides its cards until play reveals
// them, like Heredity, names there what the viewer has seen); an element the glossary does not know yet
// shows the words the picture gave it (its aria-label). Escape or the close button shuts it
// and gives the focus back to the element that opened it.
import { api, el } from "./api.js";

const glossaries = new Map();   // game -> Promise<Map<key, entry>>

function glossary(game) {
  if (!glossaries.has(game)) {
    glossaries.set(game, api(`/game-types/${game}/glossary`)
      .then((answer) => new Map((answer.entries || []).map((entry) => [entry.key, entry])))
      .catch(() => new Map()));
  }
  return glossaries.get(game);
}

let box = null;
let opener = null;

function ensureBox() {
  if (box) return box;
  box = el("div", { class: "detail", id: "detail", "data-testid": "detail", role: "dialog", "aria-modal": "false",
    "aria-labelledby": "detail-name", hidden: true, tabindex: "-1" });
  document.body.append(box);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !box.hidden) { event.preventDefault(); closeDetail(); }
  });
  return box;
}

export function closeDetail() {
  if (!box || box.hidden) return;
  box.hidden = true;
  if (opener && opener.isConnected) opener.focus();
  opener = null;
}

// Open the words of `key` (a glossary key) near `element`; `fallback` when the glossary lacks it.
export async function openDetail(game, key, element, fallback = "", live = null) {
  const dialog = ensureBox();
  opener = element || document.activeElement;
  const entries = live ? await live().then((answer) => new Map((answer.entries || []).map((e) => [e.key, e])))
    .catch(() => glossary(game)) : await glossary(game);
  const entry = entries.get(key);
  const name = entry ? entry.name : (fallback.split(". ")[0] || key);
  const text = entry ? entry.text : fallback.split(". ").slice(1).join(". ") || fallback;
  dialog.replaceChildren(...[
    el("div", { class: "detail-head" },
      el("h2", { id: "detail-name" }, name),
      el("button", { type: "button", class: "small", "data-testid": "detail-close", "aria-label": "Close",
        onclick: closeDetail }, "Close")),
    entry && entry.kind ? el("p", { class: "meta" }, entry.kind) : null,
    el("p", { class: "detail-text", "data-testid": "detail-text" }, text || "No words for this yet."),
  ].filter(Boolean));
  dialog.hidden = false;
  place(dialog, element);
  dialog.focus();
}

// Beside the element on a wide screen; along the bottom of the screen on a phone (CSS does that).
function place(dialog, element) {
  dialog.style.left = dialog.style.top = "";
  if (!element || window.innerWidth < 600) return;
  const rect = element.getBoundingClientRect();
  const width = Math.min(360, window.innerWidth - 24);
  const left = Math.max(12, Math.min(rect.left, window.innerWidth - width - 12));
  const below = rect.bottom + 8;
  const top = below + 200 < window.innerHeight ? below : Math.max(12, rect.top - 8 - dialog.offsetHeight);
  dialog.style.left = `${left + window.scrollX}px`;
  dialog.style.top = `${top + window.scrollY}px`;
}

export function glossaryOf(game) { return glossary(game); }
