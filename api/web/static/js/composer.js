// The move composer: the move tree of `paths` (GET /games/{id}/legal-moves), one level at a time.
//
// `choice` buttons show the distinct next steps under the steps chosen so far (`composer-path`);
// `composer-back` goes up one level. Choosing a step that ends a move's path plays that move. A board
// element chosen (`narrow(key)`) keeps only the moves whose `targets` name it, and plays the move when
// there is only one. A listing without paths (an older server) groups moves by kind, then label.
import { api, el, fallbackLabel } from "./api.js";

function kindWords(move) {
  const kind = String((move && move.type) || "move").replace(/_/g, " ");
  return kind.charAt(0).toUpperCase() + kind.slice(1);
}

export class Composer {
  // `box`: the move-composer element; `play(move, version)`: plays a move; `nameOf(key)`: a board key in words.
  constructor(box, { play, nameOf = (key) => key, about = null }) {
    this.box = box;
    this.play = play;
    this.nameOf = nameOf;
    this.about = about;       // opens the words of a board key (the detail popup)
    this.listing = null;
    this.prefix = [];
    this.focus = null;      // a board key the moves are narrowed to, or null
    this.busy = false;
  }

  paths() {
    const listing = this.listing || {};
    const moves = listing.moves || [];
    if (Array.isArray(listing.paths) && listing.paths.length === moves.length) return listing.paths;
    const labels = listing.labels || [];
    const kinds = moves.map(kindWords);
    const count = (kind) => kinds.filter((k) => k === kind).length;
    return moves.map((move, i) => {
      const label = labels[i] || fallbackLabel(move);
      return count(kinds[i]) > 1 && moves.length > 8 ? [kinds[i], label] : [label];
    });
  }

  // The indices of the moves still in play: under the prefix, and involving the focused key.
  candidates() {
    const listing = this.listing || {};
    const paths = this.paths();
    const targets = listing.targets || [];
    const out = [];
    paths.forEach((path, i) => {
      if (this.focus && !(targets[i] || []).includes(this.focus)) return;
      if (this.prefix.every((step, k) => path[k] === step)) out.push(i);
    });
    return out;
  }

  show(listing) {
    const same = this.listing && listing && this.listing.version === listing.version
      && JSON.stringify(this.listing.moves) === JSON.stringify(listing.moves);
    this.listing = listing;
    if (!same) { this.prefix = []; this.focus = null; }
    if (!this.candidates().length) { this.prefix = []; this.focus = null; }
    this.render();
  }

  reset() { this.prefix = []; this.focus = null; this.render(); }

  // Narrow to the moves involving `key`; play at once when only one does. False when none does.
  narrow(key) {
    const targets = (this.listing && this.listing.targets) || [];
    if (!targets.some((keys) => (keys || []).includes(key))) return false;
    this.focus = key;
    this.prefix = [];
    const left = this.candidates();
    if (left.length === 1) { this.choose(left[0]); return true; }
    this.render();
    const first = this.box.querySelector("[data-testid=choice]");
    if (first) first.focus({ preventScroll: true });
    this.box.scrollIntoView({ block: "nearest", behavior: "smooth" });
    return true;
  }

  choose(index) {
    const listing = this.listing;
    this.prefix = [];
    this.focus = null;
    for (const button of this.box.querySelectorAll("button")) button.disabled = true;   // until the table answers
    this.play(listing.moves[index], listing.version);
  }

  step(step) {
    const paths = this.paths();
    const depth = this.prefix.length;
    const ending = this.candidates().filter((i) => paths[i][depth] === step && paths[i].length === depth + 1);
    const deeper = this.candidates().filter((i) => paths[i][depth] === step && paths[i].length > depth + 1);
    if (ending.length === 1 && !deeper.length) { this.choose(ending[0]); return; }
    this.prefix = [...this.prefix, step];
    this.render();
    const first = this.box.querySelector("[data-testid=choice]");
    if (first) first.focus({ preventScroll: true });
  }

  back() {
    if (this.prefix.length) this.prefix = this.prefix.slice(0, -1);
    else this.focus = null;
    this.render();
    const back = this.box.querySelector("[data-testid=composer-back]");
    if (back && !back.disabled) back.focus({ preventScroll: true });
  }

  render() {
    const moves = (this.listing && this.listing.moves) || [];
    if (!moves.length) { this.box.hidden = true; this.box.replaceChildren(); return; }
    this.box.hidden = false;
    const paths = this.paths();
    const depth = this.prefix.length;
    const left = this.candidates();
    const steps = [];
    const endsHere = [];
    for (const i of left) {
      const path = paths[i];
      if (path.length === depth) endsHere.push(i);       // the chosen steps are a whole move's path
      else if (!steps.includes(path[depth])) steps.push(path[depth]);
    }
    const crumbs = [];
    if (this.focus) {
      const key = this.focus;
      crumbs.push(el("li", { class: "focus" }, `With ${this.nameOf(key)}`, this.about ? el("button", {
        type: "button", class: "small about", "data-testid": "composer-about", onclick: () => this.about(key),
      }, "What is it?") : null));
    }
    for (const step of this.prefix) crumbs.push(el("li", {}, step));
    const buttons = [
      ...endsHere.map((i) => el("button", { type: "button", class: "choice end", "data-testid": "choice",
        onclick: () => this.choose(i) }, "Do this")),
      ...steps.map((step) => {
        const count = left.filter((i) => paths[i][depth] === step).length;
        const leaf = left.some((i) => paths[i][depth] === step && paths[i].length === depth + 1) && count === 1;
        return el("button", { type: "button", class: leaf ? "choice end" : "choice", "data-testid": "choice",
          title: leaf ? "plays this move" : `${count} moves`, onclick: () => this.step(step) },
          step, leaf ? null : el("span", { class: "count", "aria-hidden": "true" }, ` ${count} ›`));
      }),
    ];
    this.box.replaceChildren(
      el("div", { class: "composer-head" },
        el("button", { type: "button", class: "small", "data-testid": "composer-back",
          disabled: !depth && !this.focus, onclick: () => this.back(), "aria-label": "Back one step" }, "‹ Back"),
        el("ol", { class: "composer-path", "data-testid": "composer-path", "aria-label": "Chosen so far" },
          crumbs.length ? crumbs : el("li", { class: "meta" }, "Choose what to do"))),
      el("div", { class: "choices", role: "group", "aria-label": "Choices" }, buttons),
    );
  }
}

// POST a move; when refused only because another seat moved first, play it again on the new version if
// it is still listed (a person sees the refusal only when the move is no longer possible).
export async function playMove(gameId, token, move, version) {
  const body = (v) => ({ move, expected_version: v });
  try {
    return await api(`/games/${gameId}/moves`, { token, method: "POST", body: body(version) });
  } catch (error) {
    if (!error.body || error.body.error !== "version_conflict") throw error;
    const listing = await api(`/games/${gameId}/legal-moves`, { token });
    const wanted = JSON.stringify(move);
    if (!(listing.moves || []).some((m) => JSON.stringify(m) === wanted)) {
      error.body = { ...error.body, detail: "Someone moved first and that move is no longer possible." };
      throw error;
    }
    return api(`/games/${gameId}/moves`, { token, method: "POST", body: body(listing.version) });
  }
}
