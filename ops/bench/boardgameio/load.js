// Load generator for boardgame.io: MATCHES two-player matches, each seat a boardgame.io
// client over socket.io (its real multiplayer client), closed loop: the seat to move sends
// `add(1)` and the move is timed until the state with the new count reaches that client.
// Usage: node load.js SERVER_URL MATCHES SECONDS -> one JSON line like loadgen.py's.
const { Client } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { CountUp } = require('./game');

const [url, matchesArg, secondsArg] = process.argv.slice(2);
const MATCHES = Number(matchesArg);
const SECONDS = Number(secondsArg);

async function post(path, body) {
  const res = await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json' },
                                        body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
  return res.json();
}

async function match(latencies, state) {
  const { matchID } = await post('/games/count-up/create', { numPlayers: 2 });
  const clients = [];
  for (const playerID of ['0', '1']) {
    const { playerCredentials } = await post(`/games/count-up/${matchID}/join`, { playerID, playerName: `p${playerID}` });
    const client = Client({ game: CountUp, multiplayer: SocketIO({ server: url, socketOpts: { transports: ['websocket'] } }), matchID, playerID,
                            credentials: playerCredentials, debug: false });
    client.start();
    clients.push(client);
  }
  await new Promise((resolve) => {
    const check = () => (clients.every((c) => c.getState()) ? resolve() : setTimeout(check, 20));
    check();
  });
  // Each seat's latest count, and who waits for which count (no polling).
  const waiting = clients.map(() => null);
  clients.forEach((client, i) => client.subscribe((next) => {
    const w = waiting[i];
    if (next && w && next.G.count >= w.count && next.ctx.currentPlayer !== w.notPlayer) {
      waiting[i] = null;
      w.resolve();
    }
  }));
  const reach = (i, count, notPlayer) => new Promise((resolve) => {
    const now = clients[i].getState();
    if (now.G.count >= count && now.ctx.currentPlayer !== notPlayer) return resolve();
    waiting[i] = { count, notPlayer, resolve };
  });
  let done = 0;
  await state.begin;
  while (Date.now() < state.until) {
    const s = clients[0].getState();
    const moverIndex = Number(s.ctx.currentPlayer);
    const count = s.G.count;
    const started = process.hrtime.bigint();
    const answered = reach(moverIndex, count + 1, String(moverIndex));
    clients[moverIndex].moves.add(1);
    await answered;
    latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
    await reach(1 - moverIndex, count + 1, String(moverIndex));  // the other seat sees its turn
    done += 1;
  }
  clients.forEach((c) => c.stop());
  return done;
}

(async () => {
  const latencies = [];
  let release;
  const state = { until: 0, begin: new Promise((r) => { release = r; }) };
  const runs = Array.from({ length: MATCHES }, () => match(latencies, state));
  await new Promise((r) => setTimeout(r, 1000 + 50 * MATCHES));
  const begun = Date.now();
  state.until = begun + SECONDS * 1000;
  release();
  const counts = await Promise.all(runs);
  const seconds = (Date.now() - begun) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (q) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] : 0);
  const requests = counts.reduce((a, b) => a + b, 0);
  console.log(JSON.stringify({ requests, seconds, per_second: requests / seconds, p50_ms: pct(0.5), p99_ms: pct(0.99), errors: [] }));
  process.exit(0);
})().catch((e) => { console.error(e); process.exit(1); });
