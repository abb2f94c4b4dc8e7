// The players at the table (issue 28): `seat-list` with one `seat` per seat (name, bot level or
// "left"/"forfeited", an online dot, the seat's `clock`), the `leave` button of the viewer's own seat,
// and "Your turn" in the tab's title while this seat must act.
//
// A clock counts down on the page from the server's `clock_s` (seconds left when GET /games/{id}
// answered) for a seat being asked, and stands still otherwise: the page never decides a timeout,
// the server's ClockKeeper does and the table reads it back.
import { el, seatName } from "./api.js";

const BASE_TITLE = document.title;
let shown = null;           // {seats, asked: Set, at: ms when read}
let ticker = null;
let notified = null;        // the version a sound/notification was given for

export function clockText(seconds) {
  if (seconds === null || seconds === undefined) return "";
  const s = Math.max(0, Math.floor(seconds));
  const days = Math.floor(s / 86400), hours = Math.floor((s % 86400) / 3600);
  const minutes = Math.floor((s % 3600) / 60), secs = s % 60;
  const two = (n) => String(n).padStart(2, "0");
  if (days) return `${days}d ${hours}h`;
  if (hours) return `${hours}:${two(minutes)}:${two(secs)}`;
  return `${minutes}:${two(secs)}`;
}

function seatState(seat) {
  if (seat.forfeited) return "forfeited";
  if (seat.left) return `left: bot, ${seat.bot || "normal"}`;
  if (seat.bot) return `bot, ${seat.bot}`;
  return "";
}

function leftNow(seat) {
  if (seat.clock_s === null || seat.clock_s === undefined) return null;
  if (!shown || !shown.asked.has(seat.seat)) return seat.clock_s;
  return seat.clock_s - (Date.now() - shown.at) / 1000;
}

function tick() {
  if (!shown) return;
  for (const seat of shown.seats) {
    const node = document.querySelector(`[data-testid=seat][data-seat="${seat.seat}"] [data-testid=clock]`);
    if (!node) continue;
    const left = leftNow(seat);
    node.textContent = clockText(left);
    node.classList.toggle("low", left !== null && left < 30);
  }
}

// Render the seats of `game` (GET /games/{id}) for the viewer holding seat `mySeat` (or null).
export function renderSeats(box, game, names, mySeat, onLeave) {
  const seats = game.seats || names.map((name, seat) => ({ seat, name, bot: (game.bots || {})[String(seat)] || null }));
  const asked = new Set(game.status === "finished" ? [] : (game.to_act || []));
  shown = { seats, asked, at: Date.now() };
  box.replaceChildren(...seats.map((seat) => {
    const state = seatState(seat);
    const online = seat.online === true ? "online" : seat.online === false ? "offline" : "unknown";
    return el("li", {
      class: "seat" + (asked.has(seat.seat) ? " asked" : "") + (seat.seat === mySeat ? " mine" : ""),
      "data-testid": "seat", dataset: { seat: String(seat.seat), online, left: seat.left ? "true" : "false" },
    },
    el("span", { class: `dot ${online}`, title: online === "unknown" ? "" : online, "aria-label": online === "unknown" ? "" : online }),
    el("span", { class: "seat-name" }, seat.name || seatName(names, seat.seat)),
    seat.seat === mySeat ? el("span", { class: "meta" }, " (you)") : null,
    state ? el("span", { class: "meta seat-state", "data-testid": "seat-state" }, ` ${state}`) : null,
    el("span", { class: "clock" + (asked.has(seat.seat) ? " running" : ""), "data-testid": "clock",
      "aria-label": `${seat.name}'s clock` }, clockText(seat.clock_s)));
  }));
  clearInterval(ticker);
  if ([...asked].some((s) => seats[s] && seats[s].clock_s !== null && seats[s].clock_s !== undefined)) {
    ticker = setInterval(tick, 1000);
  }
  tick();
  const mine = mySeat !== null ? seats[mySeat] : null;
  const leave = document.getElementById("leave");
  leave.hidden = !mine || !!mine.left || !!mine.bot || game.status === "finished";
  leave.onclick = () => {
    if (window.confirm("Hand your seat to a bot for the rest of the game? The game will no longer count for ratings, "
      + "and you cannot take the seat back.")) onLeave();
  };
  yourTurn(game, mySeat !== null && asked.has(mySeat) && !(mine && (mine.left || mine.bot)));
}

// ---- your turn: the title always; a sound and a notification only once the player allowed them

function yourTurn(game, mine) {
  document.title = mine ? `Your turn · ${BASE_TITLE}` : BASE_TITLE;
  if (!mine) { notified = null; return; }
  if (notified === game.version || !document.hidden) { notified = game.version; return; }
  notified = game.version;
  if (localStorage.getItem("heirloom.notify") !== "1") return;
  beep();
  if ("Notification" in window && Notification.permission === "granted") {
    new Notification("Your turn", { body: document.title, tag: `heirloom-${game.id}` });
  }
}

function beep() {
  try {
    const audio = new (window.AudioContext || window.webkitAudioContext)();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.value = 0.05;
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.15);
  } catch (e) { /* no sound here */ }
}

// The button that turns the sound and notification on (the browser asks the player first).
export function wireNotify(button, say) {
  const sync = () => {
    const on = localStorage.getItem("heirloom.notify") === "1";
    button.textContent = on ? "Turn off the your-turn sound and notification" : "Tell me when it is my turn";
    button.setAttribute("aria-pressed", on ? "true" : "false");
  };
  button.addEventListener("click", async () => {
    if (localStorage.getItem("heirloom.notify") === "1") { localStorage.removeItem("heirloom.notify"); sync(); return; }
    localStorage.setItem("heirloom.notify", "1");
    if ("Notification" in window && Notification.permission === "default") {
      const answer = await Notification.requestPermission().catch(() => "denied");
      if (answer !== "granted") say("Notifications are not allowed by this browser: you will hear a sound only while this tab is open.");
    }
    sync();
  });
  sync();
}
