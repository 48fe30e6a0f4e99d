// Tic-tac-toe (tests/assignments/tictactoe/handout.md) in two files: tictactoe.js (the game,
// run with `node tictactoe.js`) requires ./board (board.js, the board). Input through Node's
// readline "line" events; rl.close() when the game is over, and the program ends by itself.
"use strict";
const readline = require("readline");
const { Board } = require("./board");

const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
const board = new Board();
let mark = "X";

function ask() {
  process.stdout.write(`${mark} plays: `);
}

console.log(board.toString());
ask();
rl.on("line", (line) => {
  const cell = /^\s*[1-9]\s*$/.test(line) ? Number(line) : 0;
  if (cell === 0) {
    console.log("Invalid cell.");
  } else if (!board.isFree(cell)) {
    console.log("Cell taken.");
  } else {
    board.place(cell, mark);
    console.log(board.toString());
    if (board.won(mark)) {
      console.log(`Player ${mark} wins!`);
      rl.close();
      return;
    }
    if (board.full()) {
      console.log("It's a draw!");
      rl.close();
      return;
    }
    mark = mark === "X" ? "O" : "X";
  }
  ask();
});
