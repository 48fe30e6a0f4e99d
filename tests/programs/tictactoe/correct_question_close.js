// Tic-tac-toe (tests/assignments/tictactoe/handout.md) in JavaScript: every move is asked with
// rl.question and its callback asks the next one; when the game is over the callback calls
// rl.close() instead of asking again, and the program ends by itself. The board is drawn with
// bars, the prompt and the results are in the program's own words where the handout allows.
const readline = require("readline");

const rl = readline.createInterface({
  input: process.stdin,
  output: process.stdout,
});

const cells = Array(9).fill(".");

function draw() {
  console.log("");
  for (let r = 0; r < 9; r += 3) {
    console.log(` ${cells[r]} | ${cells[r + 1]} | ${cells[r + 2]}`);
  }
  console.log("");
}

function threeInARow(p) {
  const same = (a, b, c) => cells[a] === p && cells[b] === p && cells[c] === p;
  for (let i = 0; i < 3; i++) {
    if (same(3 * i, 3 * i + 1, 3 * i + 2) || same(i, i + 3, i + 6)) return true;
  }
  return same(0, 4, 8) || same(2, 4, 6);
}

function turn(player) {
  rl.question(`${player} to move> `, (answer) => {
    const n = Number(answer);
    if (answer.trim() === "" || !Number.isInteger(n) || n < 1 || n > 9) {
      console.log("Invalid cell.");
      return turn(player);
    }
    if (cells[n - 1] !== ".") {
      console.log("Cell taken.");
      return turn(player);
    }
    cells[n - 1] = player;
    draw();
    if (threeInARow(player)) {
      console.log(`Player ${player} wins!`);
      rl.close();
    } else if (cells.every((c) => c !== ".")) {
      console.log("It's a draw!");
      rl.close();
    } else {
      turn(player === "X" ? "O" : "X");
    }
  });
}

console.log("Tic-tac-toe");
draw();
turn("X");
