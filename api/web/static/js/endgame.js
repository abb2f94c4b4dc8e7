// `final-scores`: at the end of a game, each player's score by scoring category (GET /games/{id}'s
// `score_breakdown`, from each game's scoring.score_breakdown), on the table and the replay.
import { el, seatName, SEAT_COLOURS } from "./api.js";

export function showFinalScores(box, game, names) {
  const rows = (game && game.status === "finished" && game.score_breakdown) || [];
  if (!rows.length) { box.hidden = true; box.replaceChildren(); return; }
  const seats = names.map((_, seat) => seat);
  const winners = new Set(game.winners || []);
  box.hidden = false;
  box.replaceChildren(
    el("h3", { id: "final-scores-h" }, "Final scores"),
    el("div", { class: "table-wrap" },
      el("table", { class: "scores-table final", "aria-labelledby": "final-scores-h" },
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Category"),
          seats.map((seat) => el("th", { scope: "col", class: "num" },
            el("span", { class: "swatch", style: `background:${SEAT_COLOURS[seat % 6]}` }), seatName(names, seat),
            winners.has(seat) ? el("span", { class: "winner-mark" }, "winner") : null)))),
        el("tbody", {}, rows.map((row) => el("tr", { class: row.category === "Total" ? "total" : null },
          el("th", { scope: "row" }, row.category),
          seats.map((seat) => el("td", { class: "num" }, String(row.points[String(seat)] ?? 0)))))))),
  );
}
