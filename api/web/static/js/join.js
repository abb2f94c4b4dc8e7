// Taking an invited seat: the invitation code comes in the URL fragment and is used once.
import { api, ApiError, loadHeld, saveHeld, takeFragment } from "./api.js";

const root = document.getElementById("join");
const gameId = root.dataset.gameId;
const form = document.getElementById("join-form");
const errorBox = document.querySelector("[data-testid=join-error]");
const inviteKey = `heirloom.invite.${gameId}`;

const fresh = takeFragment("invite");
if (fresh) sessionStorage.setItem(inviteKey, fresh);
const invite = sessionStorage.getItem(inviteKey);
if (!invite) {
  errorBox.textContent = "This page needs the invitation link you were sent (it ends with #invite=…).";
  form.querySelector("button").disabled = true;
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  errorBox.textContent = "";
  const name = form.elements.name.value.trim();
  if (!name) { errorBox.textContent = "Say your name first."; form.elements.name.focus(); return; }
  try {
    const joined = await api(`/games/${gameId}/join`, { method: "POST", body: { invite, name } });
    const held = loadHeld(gameId);
    held.seats[String(joined.seat)] = joined.token;
    held.current = `seat:${joined.seat}`;
    saveHeld(gameId, held);
    sessionStorage.removeItem(inviteKey);
    location.assign(`/ui/games/${gameId}`);
  } catch (error) {
    const body = error instanceof ApiError ? error.body : {};
    errorBox.textContent = body.error === "invite_used" ? "This invitation was already used."
      : error instanceof ApiError && error.status === 404 && body.error === "not_found"
        ? "This server does not hand out invitations." : (body.detail || String(error));
  }
});
form.elements.name.focus();
