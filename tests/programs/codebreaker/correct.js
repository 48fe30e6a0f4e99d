// Codebreaker (tests/assignments/codebreaker/handout.md) in JavaScript (Node), written from
// the handout: readline "line" events, the prompt "Guess (4 digits, 1-6): ", the code read
// with fs.readFileSync; rl.close() when the game is over, and the "close" event (also at
// end of input) says how it ended.
"use strict";
const fs = require("fs");
const readline = require("readline");

function isCode(text) {
  return /^[1-6]{4}$/.test(text);
}

function readCode() {
  const name = process.argv[2];
  if (name === undefined) return null;
  try {
    const first = fs.readFileSync(name, "utf8").split("\n")[0].trim();
    return isCode(first) ? first : null;
  } catch (e) {
    return null;
  }
}

const code = readCode();
if (code === null) {
  console.log("Cannot read the code.");
  process.exitCode = 1;
} else {
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
  let used = 0;
  let over = false;
  rl.setPrompt("Guess (4 digits, 1-6): ");
  rl.on("line", (line) => {
    if (over) return;
    const guess = line.replace(/^ +| +$/g, "");
    if (!isCode(guess)) {
      console.log("Invalid guess.");
      rl.prompt();
      return;
    }
    used += 1;
    let black = 0;
    const codeCounts = {};
    const guessCounts = {};
    for (let i = 0; i < 4; i++) {
      if (code[i] === guess[i]) black += 1;
      codeCounts[code[i]] = (codeCounts[code[i]] || 0) + 1;
      guessCounts[guess[i]] = (guessCounts[guess[i]] || 0) + 1;
    }
    let common = 0;
    for (const d of "123456") {
      common += Math.min(codeCounts[d] || 0, guessCounts[d] || 0);
    }
    console.log(`Black: ${black} White: ${common - black}`);
    if (black === 4) {
      console.log(`You win! Guesses: ${used}`);
      over = true;
      rl.close();
    } else if (used === 10) {
      console.log(`You lose! The code was ${code}.`);
      over = true;
      rl.close();
    } else {
      rl.prompt();
    }
  });
  rl.on("close", () => {
    if (!over) {
      console.log(`\nYou quit! The code was ${code}.`);
    }
  });
  rl.prompt();
}
