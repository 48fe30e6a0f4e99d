#!/usr/bin/env node
// BUG: the winner messages are swapped (when the player faces the last match the player is declared the winner)
// TARGET: the ending: "Game Over - Computer wins." (example-execution: computer-wins)
// CS 135 Assignment 4 - Nim, in JavaScript (Node). Reads ALL of its input at once with
// fs.readFileSync(0) (the way the course's online judge examples read input), then plays:
// it works with the input piped in, but at a terminal it would wait for Ctrl-D before
// printing anything. Colours like the "chalk" examples, written out by hand: the matches in
// yellow, the computer's move in magenta, errors in red, the result in bold.
// When the answers run out it exits quietly.
"use strict";
const fs = require("fs");

const color = {
  reset: "\x1b[0m",
  bold: "\x1b[1m",
  red: "\x1b[31m",
  yellow: "\x1b[33m",
  magenta: "\x1b[35m",
};

const lines = fs.readFileSync(0, "utf8").split("\n");
if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
let next = 0;

const say = (text) => process.stdout.write(text);

function readLine() {
  if (next >= lines.length) process.exit(0);
  return lines[next++].trim();
}

function matchesText(count) {
  let text = "";
  for (let i = 1; i <= count; i++) {
    text += "|";
    if (i % 5 === 0) text += " ";
  }
  return color.yellow + text + color.reset;
}

function error(message) {
  say(color.red + message + color.reset + "\n");
}

function askYesNo(question) {
  for (;;) {
    say(question);
    const answer = readLine();
    if (["Y", "y", "N", "n"].includes(answer)) return answer.toUpperCase();
    error("Please, answer Y or N.");
  }
}

function askRemove() {
  for (;;) {
    say("Remove (1 - 3): ");
    const answer = readLine();
    if (!/^-?\d+$/.test(answer)) {
      error("Please, type 1, 2, or 3 as your response.");
    } else if (Number(answer) < 1) {
      error("Must remove at least one match.");
    } else if (Number(answer) > 3) {
      error("Cannot remove more than three matches.");
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

function main() {
  say("The game of Nim. The player to remove the last match loses.\n");
  do {
    let playerTurn = askYesNo("Would you like to go first? (Y/N): ") === "Y";
    let matches = 21;
    for (;;) {
      const who = playerTurn ? "Player" : "Computer";
      say(`${who} Turn - Matches: ${matchesText(matches)}\n`);
      if (matches === 1) {
        const result = playerTurn ? "Game Over - Player wins." : "Game Over - Computer wins.";
        say(color.bold + result + color.reset + "\n");
        break;
      }
      if (playerTurn) {
        matches -= askRemove();
      } else {
        const take = computerMove(matches);
        say(`${color.magenta}Computer removes ${take}.${color.reset}\n`);
        matches -= take;
      }
      playerTurn = !playerTurn;
    }
  } while (askYesNo("Would you like to play again? (Y/N): ") === "Y");
  process.exit(0);
}

main();
