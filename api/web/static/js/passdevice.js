// One screen (hot seat): `pass-device` covers the table when the device passes to a seat that holds
// hidden information (a competitive game with hidden information: its hand is private), until that
// seat's player clicks it. The seat that just played can still take back its last move from the cover.
import { el } from "./api.js";

export function coverFor(meta) {
  return !!(meta && meta.hidden_information && !meta.cooperative);
}

// Show the cover for `name`; `takeBack` (or null) is offered for `previousName`. Resolves when uncovered.
export function passDevice({ name, previousName = null, takeBack = null }) {
  document.getElementById("pass-device")?.remove();
  return new Promise((resolve) => {
    const open = el("button", { type: "button", class: "primary big", "data-testid": "pass-device-open",
      onclick: () => { cover.remove(); resolve(true); } }, `I am ${name}: show my table`);
    const back = takeBack ? el("button", { type: "button", "data-testid": "pass-device-undo",
      onclick: async () => { back.disabled = true; await takeBack(); cover.remove(); resolve(false); } },
      `${previousName}: take back my last move`) : null;
    const cover = el("div", { class: "pass-device", id: "pass-device", "data-testid": "pass-device", role: "dialog",
      "aria-modal": "true", "aria-labelledby": "pass-device-h" },
      el("div", { class: "pass-box" },
        el("h2", { id: "pass-device-h" }, `Pass to ${name}`),
        el("p", {}, `${name}'s cards are hidden until ${name} takes the device.`),
        open, back));
    document.body.append(cover);
    open.focus();
  });
}
