// boardgame.io 0.50's server, in memory, with the trivial game of ops/bench/ws_vs_boardgameio.py.
// Usage: node server.js PORT   (NODE_PATH points at a folder where `npm install boardgame.io@0.50` ran)
const { Server, Origins } = require('boardgame.io/server');
const { CountUp } = require('./game');

const server = Server({ games: [CountUp], origins: [Origins.LOCALHOST, /.*/] });
server.run(Number(process.argv[2]), () => console.log('ready'));
