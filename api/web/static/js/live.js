// Live updates of one game: the WebSocket of API.md when the server has it, else the
// Server-Sent Events stream read with fetch (so any event type is seen, and the stream
// restarts after the last event it delivered). The page re-reads what it shows on each
// event, with its own token; the stream itself is the spectator's (redacted) one.

// `token()` (optional) is the seat's token: its connection shows the seat online (issue 28.3).
export function follow(gameId, { mode = "sse", after = 0, onEvent, onState, token = () => null }) {
  let position = after;
  let stopped = false;
  let controller = null;
  const state = (text) => onState && onState(text);

  async function sse() {
    controller = new AbortController();
    const response = await fetch(`/games/${gameId}/stream?after=${position}`, {
      headers: { Accept: "text/event-stream", ...(token() ? { Authorization: `Bearer ${token()}` } : {}) }, signal: controller.signal, cache: "no-store",
    });
    if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`);
    state("live");
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const message = { id: null, type: "message", data: "" };
        for (const line of block.split("\n")) {
          if (line.startsWith("id:")) message.id = line.slice(3).trim();
          else if (line.startsWith("event:")) message.type = line.slice(6).trim();
          else if (line.startsWith("data:")) message.data += line.slice(5).trim();
        }
        if (!message.data) continue;
        if (message.id && /^\d+$/.test(message.id)) position = Number(message.id);
        onEvent(message);
      }
    }
  }

  function ws() {
    return new Promise((resolve, reject) => {
      const scheme = location.protocol === "https:" ? "wss" : "ws";
      const socket = new WebSocket(`${scheme}://${location.host}/games/${gameId}/ws?after=${position}`);
      let opened = false;
      socket.onopen = () => { opened = true; state("live"); socket.send(JSON.stringify({ token: token() || null })); };
      socket.onmessage = (event) => {
        let data = null;
        try { data = JSON.parse(event.data); } catch (e) { return; }
        if (!data || typeof data.version !== "number") return; // not an event (an error body)
        position = Math.max(position, data.version);
        onEvent({ id: data && data.version, type: (data && data.type) || "message", data: event.data });
      };
      socket.onclose = () => (opened ? resolve() : reject(new Error("no websocket")));
      controller = { abort: () => socket.close() };
    });
  }

  async function run() {
    let useWs = mode === "ws";
    while (!stopped) {
      try {
        if (useWs) await ws(); else await sse();
      } catch (error) {
        if (useWs) useWs = false; // fall back to the event stream
      }
      if (stopped) return;
      state("reconnecting…");
      await new Promise((r) => setTimeout(r, 1000));
      onEvent({ id: null, type: "reconnect", data: "" }); // re-read: something may have been missed
    }
  }

  window.addEventListener("pagehide", () => { stopped = true; if (controller) controller.abort(); });
  run();
  return { stop() { stopped = true; if (controller) controller.abort(); } };
}
