// Tic-tac-toe (tests/assignments/tictactoe/handout.md) as an ES module: the answers are read
// with `for await (const line of rl)`; when the game is over the loop closes the interface
// and breaks out of it. Prompts on their own line, the board drawn with dashes between rows.
import { createInterface } from "node:readline";

const rl = createInterface({ input: process.stdin });
const board = new Array(9).fill(".");
const wins = [
  [0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6],
  [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6],
];

function show() {
  const rows = [0, 3, 6].map((r) => board.slice(r, r + 3).join(" "));
  console.log(rows.join("\n-----\n"));
}

let mark = "X";
show();
console.log(`${mark}: which cell?`);
for await (const line of rl) {
  const cell = Number.parseInt(line, 10);
  if (!/^\s*\d+\s*$/.test(line) || cell < 1 || cell > 9) {
    console.log("Invalid cell.");
  } else if (board[cell - 1] !== ".") {
    console.log("Cell taken.");
  } else {
    board[cell - 1] = mark;
    show();
    if (wins.some(([a, b, c]) => board[a] === mark && board[b] === mark && board[c] === mark)) {
      console.log(`Player ${mark} wins!`);
      rl.close();
      break;
    }
    if (!board.includes(".")) {
      console.log("It's a draw!");
      rl.close();
      break;
    }
    mark = mark === "X" ? "O" : "X";
  }
  console.log(`${mark}: which cell?`);
}
