// Review tools of the replay viewer (issue 26.3-5): "What if?" forks, the game's record, comments
// on the step shown, and shared reviews (/ui/reviews/{id}: everyone follows the leader's step).
// Every comment is shown with textContent (el() builds text nodes): never as HTML.
import { api, el, errorText, loadHeld, saveHeld, takeFragment } from "./api.js";

const $ = (id) => document.getElementById(id);

// ctx: { gameId, names, token(), go(step), step(), finished(), say(text) }
export function reviewTools(ctx) {
  const form = $("comment-form");
  let shownStep = null;

  async function loadComments(step) {
    shownStep = step;
    $("comments-h").textContent = `Comments on step ${step}`;
    try {
      const comments = await api(`/games/${ctx.gameId}/comments?step=${step}`, { token: ctx.token() });
      if (shownStep !== step) return;
      $("comment-items").replaceChildren(...comments.map((c) => el("li", { dataset: { role: c.role } },
        el("strong", {}, c.author), el("span", { class: "meta" }, ` ${c.at.replace("T", " ").replace("Z", " UTC")}`),
        el("p", { class: "comment-text" }, c.text))));
      $("comments-empty").hidden = comments.length > 0;
      $("comments-empty").textContent = !ctx.finished() && !ctx.token()
        ? "While the game runs, its comments are for the players and the referee only."
        : "No comments on this step yet.";
    } catch (error) { $("comments-empty").hidden = false; $("comments-empty").textContent = errorText(error); }
    const guest = ctx.finished() && !ctx.token();
    $("comment-name-row").hidden = !guest;
    form.hidden = !ctx.finished() && !ctx.token();
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = $("comment-text").value;
    const body = { step: ctx.step(), text };
    if (!ctx.token()) body.name = $("comment-name").value;
    try {
      await api(`/games/${ctx.gameId}/comments`, { token: ctx.token(), method: "POST", body });
      $("comment-text").value = "";
      $("comment-message").textContent = "Comment added.";
      loadComments(ctx.step());
    } catch (error) { $("comment-message").textContent = errorText(error); }
  });

  // "What if?": a new table from this step; this tab holds every seat of it that is not a bot.
  $("fork").addEventListener("click", async () => {
    try {
      const fork = await api(`/games/${ctx.gameId}/fork`, { token: ctx.token(), method: "POST", body: { step: ctx.step() } });
      const held = loadHeld(fork.id);
      held.referee = fork.referee_token;
      for (const seat of fork.seats || []) if (seat.token) held.seats[String(seat.seat)] = seat.token;
      const seats = Object.keys(held.seats);
      held.current = seats.length ? `seat:${seats[0]}` : "referee";
      held.follow = true;
      saveHeld(fork.id, held);
      location.href = `/ui/games/${fork.id}`;
    } catch (error) { ctx.say(`No fork: ${errorText(error)}`); }
  });

  // The record, downloaded with this viewer's token (a running game's is redacted for it).
  $("record").addEventListener("click", async () => {
    try {
      const record = await api(`/games/${ctx.gameId}/record`, { token: ctx.token() });
      const blob = new Blob([JSON.stringify(record, null, 1)], { type: "application/json" });
      const link = el("a", { href: URL.createObjectURL(blob), download: `heirloom-${ctx.gameId}.json` });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 10000);
    } catch (error) { ctx.say(`No record: ${errorText(error)}`); }
  });

  $("review").addEventListener("click", async () => {
    try {
      const review = await api(`/games/${ctx.gameId}/review`, { token: ctx.token(), method: "POST",
                                                                 body: { step: ctx.step() } });
      sessionStorage.setItem(`heirloom.review.${review.id}`, review.leader_token);
      location.href = review.url;
    } catch (error) { ctx.say(`No shared review: ${errorText(error)}`); }
  });

  return { stepChanged: loadComments };
}

// A shared review: the leader's steps are sent to everyone; followers' pages follow them.
export function sharedReview(reviewId, ctx) {
  const stored = `heirloom.review.${reviewId}`;
  const handed = takeFragment("leader");
  if (handed) sessionStorage.setItem(stored, handed);
  let leader = sessionStorage.getItem(stored);
  let following = null;
  const state = $("review-state");

  function show() {
    state.textContent = leader
      ? "You lead this review: everyone with the link sees the step you show."
      : "You follow this review: the page shows the leader's step.";
    $("review-link").value = `${location.origin}/ui/reviews/${reviewId}`;
    $("handover").hidden = !leader;
  }
  show();
  $("review-box").hidden = false;

  $("handover").addEventListener("click", async () => {
    try {
      const over = await api(`/reviews/${reviewId}/handover`, { token: leader, method: "POST" });
      sessionStorage.removeItem(stored);
      leader = null;
      show();
      $("handover-link").value = `${location.origin}${over.url}#leader=${over.leader_token}`;
      $("handover-link").hidden = false;
      state.textContent = "Give the new leader this link; you now follow.";
    } catch (error) { ctx.say(errorText(error)); }
  });

  const source = new EventSource(`/reviews/${reviewId}/stream`);
  source.addEventListener("step", (event) => {
    const data = JSON.parse(event.data);
    following = data.step;
    if (!leader || data.step !== ctx.step()) ctx.go(data.step, "", true);
  });
  source.onerror = () => { state.textContent = "Reconnecting to the review…"; setTimeout(show, 1500); };

  let timer = null;
  return {
    // the leader's page sends its step (a quick run of steps sends the last one)
    stepChanged(step) {
      if (!leader || step === following) return;
      clearTimeout(timer);
      timer = setTimeout(async () => {
        try { await api(`/reviews/${reviewId}`, { token: leader, method: "PUT", body: { step } }); following = step; }
        catch (error) { ctx.say(errorText(error)); }
      }, 120);
    },
  };
}
