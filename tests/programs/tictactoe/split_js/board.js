// The board of tictactoe.js: nine cells numbered 1 to 9, row by row.
"use strict";

const LINES = [
  [1, 2, 3], [4, 5, 6], [7, 8, 9],
  [1, 4, 7], [2, 5, 8], [3, 6, 9],
  [1, 5, 9], [3, 5, 7],
];

class Board {
  constructor() {
    this.cells = new Map();
  }

  isFree(cell) {
    return !this.cells.has(cell);
  }

  place(cell, mark) {
    this.cells.set(cell, mark);
  }

  full() {
    return this.cells.size === 9;
  }

  won(mark) {
    return LINES.some((line) => line.every((cell) => this.cells.get(cell) === mark));
  }

  toString() {
    const rows = [];
    for (let first = 1; first <= 7; first += 3) {
      const row = [];
      for (let cell = first; cell < first + 3; cell++) row.push(this.cells.get(cell) || ".");
      rows.push(row.join(" "));
    }
    return rows.join("\n");
  }
}

module.exports = { Board };
