#!/usr/bin/env node
// CS 135 Assignment 4 - Nim, in JavaScript with Node readline (buggy: accepts four).
// from an event loop (the program waits in epoll, then reads stdin without blocking).
// Bug: a move of four matches is accepted (the "more than three" rule is missing).
"use strict";
const readline = require("readline");

const rl = readline.createInterface({ input: process.stdin, terminal: false });
const lines = rl[Symbol.asyncIterator]();

const say = (text) => process.stdout.write(text);

async function readLine() {
  const { value, done } = await lines.next();
  if (done) process.exit(0);
  return value.trim();
}

function matchesText(count) {
  let text = "";
  for (let i = 1; i <= count; i++) {
    text += "|";
    if (i % 5 === 0) text += " ";
  }
  return text;
}

async function askYesNo(question) {
  for (;;) {
    say(question);
    const answer = await readLine();
    if (["Y", "y", "N", "n"].includes(answer)) return answer.toUpperCase();
    say("Please, answer Y or N.\n");
  }
}

async function askRemove() {
  for (;;) {
    say("Remove (1 - 3): ");
    const answer = await readLine();
    if (!/^-?\d+$/.test(answer)) {
      say("Please, type 1, 2, or 3 as your response.\n");
    } else if (Number(answer) < 1) {
      say("Must remove at least one match.\n");
    } else if (Number(answer) > 4) {
      say("Cannot remove more than three matches.\n");
    } else {
      return Number(answer);
    }
  }
}

function computerMove(matches) {
  switch (matches % 4) {
    case 0: return 3;
    case 3: return 2;
    default: return 1;
  }
}

async function main() {
  say("The game of Nim. The player to remove the last match loses.\n");
  do {
    let playerTurn = (await askYesNo("Would you like to go first? (Y/N): ")) === "Y";
    let matches = 21;
    for (;;) {
      const who = playerTurn ? "Player" : "Computer";
      say(`${who} Turn - Matches: ${matchesText(matches)}\n`);
      if (matches === 1) {
        say(playerTurn ? "Game Over - Computer wins.\n" : "Game Over - Player wins.\n");
        break;
      }
      if (playerTurn) {
        matches -= await askRemove();
      } else {
        const take = computerMove(matches);
        say(`Computer removes ${take}.\n`);
        matches -= take;
      }
      playerTurn = !playerTurn;
    }
  } while ((await askYesNo("Would you like to play again? (Y/N): ")) === "Y");
  process.exit(0);
}

main();
