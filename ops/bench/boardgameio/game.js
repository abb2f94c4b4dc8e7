// The equivalent of Heirloom's test game `api_count`: two players take turns adding 1 or 2
// to a shared counter; whoever reaches the target wins. The move is validated (an amount
// other than 1 or 2 is INVALID_MOVE) and runs on the server only (client: false), so a move's
// answer is the server's, as with Heirloom.
const { INVALID_MOVE } = require('boardgame.io/core');

const TARGET = 1000000;

const CountUp = {
  name: 'count-up',
  setup: () => ({ count: 0 }),
  moves: {
    add: {
      move: ({ G }, amount) => {
        if (amount !== 1 && amount !== 2) return INVALID_MOVE;
        G.count += amount;
      },
      client: false,
    },
  },
  turn: { minMoves: 1, maxMoves: 1 },
  endIf: ({ G, ctx }) => (G.count >= TARGET ? { winner: ctx.currentPlayer } : undefined),
};

module.exports = { CountUp };
