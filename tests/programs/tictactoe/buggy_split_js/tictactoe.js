// tictactoe.js of split_js (the game; board.js beside it has the bug).
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
