// Tic-tac-toe (tests/assignments/tictactoe/handout.md) in JavaScript with Node's readline, the
// way the Node documentation shows it: the game is driven by the interface's "line" events,
// and rl.close() is called once the game is over, so the program ends by itself (at a
// terminal, and under grade over a pipe too).
"use strict";
const readline = require("readline");

const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
const board = [".", ".", ".", ".", ".", ".", ".", ".", "."];
const LINES = [
  [0, 1, 2], [3, 4, 5], [6, 7, 8],
  [0, 3, 6], [1, 4, 7], [2, 5, 8],
  [0, 4, 8], [2, 4, 6],
];
let player = "X";

function showBoard() {
  for (let row = 0; row < 3; row++) {
    console.log(board.slice(row * 3, row * 3 + 3).join(" "));
  }
}

function askMove() {
  rl.setPrompt(`Player ${player}, choose a cell (1-9): `);
  rl.prompt();
}

function wins(mark) {
  return LINES.some((line) => line.every((cell) => board[cell] === mark));
}

rl.on("line", (answer) => {
  const text = answer.trim();
  const cell = /^[0-9]+$/.test(text) ? parseInt(text, 10) : NaN;
  if (!(cell >= 1 && cell <= 9)) {
    console.log("Invalid cell.");
    askMove();
    return;
  }
  if (board[cell - 1] !== ".") {
    console.log("Cell taken.");
    askMove();
    return;
  }
  board[cell - 1] = player;
  showBoard();
  if (wins(player)) {
    console.log(`Player ${player} wins!`);
    rl.close();
    return;
  }
  if (!board.includes(".")) {
    console.log("It's a draw!");
    rl.close();
    return;
  }
  player = player === "X" ? "O" : "X";
  askMove();
});

showBoard();
askMove();
