// The minimal boardgame.io driver (the way its own users drive a match): MATCHES two-player
// matches created over its HTTP lobby API with a keep-alive node:http agent, both seats joined,
// each seat a boardgame.io `Client` with the SocketIO transport over websocket only. Closed
// loop per match: the seat to move calls `moves.add(1)`; the move counts (and its time ends)
// when BOTH seats' states carry the new `_stateID` (the mover has its answer, the other seat
// knows it is its turn). No polling: each seat's `subscribe` callback resolves the wait.
// Usage: node drive.js SERVER_URL MATCHES SECONDS -> one JSON line like loadgen.py's.
const http = require('node:http');
const { Client } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { CountUp } = require('./game');

const [url, matchesArg, secondsArg] = process.argv.slice(2);
const MATCHES = Number(matchesArg);
const SECONDS = Number(secondsArg);
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

function post(path, body) {
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(url + path, { method: 'POST', agent,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => (res.statusCode < 300 ? resolve(JSON.parse(Buffer.concat(chunks)))
        : reject(new Error(`${path}: ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(data);
  });
}

async function match(latencies, state) {
  const { matchID } = await post('/games/count-up/create', { numPlayers: 2 });
  const seats = [];
  for (const playerID of ['0', '1']) {
    const { playerCredentials } = await post(`/games/count-up/${matchID}/join`, { playerID, playerName: `p${playerID}` });
    const client = Client({ game: CountUp, matchID, playerID, credentials: playerCredentials, debug: false,
      multiplayer: SocketIO({ server: url, socketOpts: { transports: ['websocket'] } }) });
    seats.push({ client, stateID: -1 });
  }
  let wake = null;
  for (const seat of seats) {
    seat.client.subscribe((s) => {
      if (s) seat.stateID = s._stateID;
      if (wake) wake();
    });
    seat.client.start();
  }
  const both = (stateID) => new Promise((resolve) => {
    const check = () => {
      if (seats[0].stateID >= stateID && seats[1].stateID >= stateID) { wake = null; resolve(); }
    };
    wake = check;
    check();
  });
  await both(0);
  let done = 0;
  await state.begin;
  while (Date.now() < state.until) {
    const now = seats[0].client.getState();
    const next = now._stateID + 1;
    const started = process.hrtime.bigint();
    seats[Number(now.ctx.currentPlayer)].client.moves.add(1);
    await both(next);
    latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
    done += 1;
  }
  seats.forEach((s) => s.client.stop());
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
