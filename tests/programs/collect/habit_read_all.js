#!/usr/bin/env node
// Programming Assignment 3 - number board collect game, written in JavaScript (Node).
// usage: node assignment3.js input.txt
// The board comes from the file named on the command line; the moves are read ALL AT ONCE
// with fs.readFileSync(0) and then played one by one (works with the moves piped in from a
// file; typed at a terminal nothing happens until Ctrl-D). Laid out like Figure 4, with a
// blank cell printed as a space. When the moves run out it stops quietly.
"use strict";
const fs = require("fs");

function readBoard(fileName) {
  return fs
    .readFileSync(fileName, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => line.trim().split(/\s+/).map(Number));
}

function printBoard(board) {
  console.log();
  for (const row of board) {
    console.log(row.map((cell) => (cell === null ? " " : String(cell))).join(" ").trimEnd());
  }
  console.log();
}

function printScore(score) {
  console.log("Your score is: " + score);
  console.log();
}

// all cells connected to (row, col) (left, right, above, below) holding the same number
function findGroup(board, row, col) {
  const value = board[row][col];
  const group = [[row, col]];
  const seen = new Set([row + "," + col]);
  for (let i = 0; i < group.length; i++) {
    const [r, c] = group[i];
    for (const [dr, dc] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      const nr = r + dr;
      const nc = c + dc;
      if (nr < 0 || nr >= board.length || nc < 0 || nc >= board[nr].length) continue;
      if (seen.has(nr + "," + nc) || board[nr][nc] !== value) continue;
      seen.add(nr + "," + nc);
      group.push([nr, nc]);
    }
  }
  return group;
}

function applyGravity(board) {
  const rows = board.length;
  const cols = board[0].length;
  for (let c = 0; c < cols; c++) {
    const column = [];
    for (let r = 0; r < rows; r++) {
      if (board[r][c] !== null) column.push(board[r][c]);
    }
    while (column.length < rows) column.unshift(null);
    for (let r = 0; r < rows; r++) board[r][c] = column[r];
  }
  // remove the columns that became empty, the rest moves left
  const keep = [];
  for (let c = 0; c < cols; c++) {
    if (board.some((row) => row[c] !== null)) keep.push(c);
  }
  let result = board.map((row) => keep.map((c) => row[c]));
  // drop the empty rows at the top
  while (result.length > 0 && result[0].every((cell) => cell === null)) result.shift();
  return result;
}

function gameOver(board) {
  for (let r = 0; r < board.length; r++) {
    for (let c = 0; c < board[r].length; c++) {
      const v = board[r][c];
      if (v === null) continue;
      if (c + 1 < board[r].length && board[r][c + 1] === v) return false;
      if (r + 1 < board.length && board[r + 1][c] === v) return false;
    }
  }
  return true;
}

function main() {
  let board = readBoard(process.argv[2]);
  const moves = fs.readFileSync(0, "utf8").split("\n");
  let next = 0;
  let score = 0;
  printBoard(board);
  printScore(score);
  while (!gameOver(board)) {
    process.stdout.write("Please enter a row and a column number: ");
    if (next >= moves.length || (next === moves.length - 1 && moves[next] === "")) {
      return; // no more moves
    }
    const parts = moves[next++].trim().split(/\s+/);
    let row = Number(parts[0]);
    let col = Number(parts[1]);
    if (parts.length !== 2 || !Number.isInteger(row) || !Number.isInteger(col)) {
      row = 0;
      col = 0;
    }
    if (row < 1 || col < 1 || row > board.length || col > board[0].length) {
      console.log();
      console.log("Please enter a correct size!");
      console.log();
      continue;
    }
    row -= 1;
    col -= 1;
    const group = board[row][col] === null ? [] : findGroup(board, row, col);
    if (group.length < 2) {
      console.log();
      console.log("No movement happened try again");
      printBoard(board);
      printScore(score);
      continue;
    }
    score += board[row][col] * group.length;
    for (const [r, c] of group) board[r][c] = null;
    board = applyGravity(board);
    printBoard(board);
    printScore(score);
  }
  console.log();
  console.log("Game over");
}

main();
