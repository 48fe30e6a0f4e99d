// CS 135 Assignment 4 - Nim, in JavaScript with Node's readline as most tutorials show it:
// every answer comes through rl.question and its callback; "N" to playing again closes the
// interface (rl.close()) and the program ends by itself, with no process.exit. At end of
// input readline closes the interface and the program ends quietly.
const readline = require("readline");

const rl = readline.createInterface({ input: process.stdin, output: process.stdout });

function matchesText(count) {
  let text = "";
  for (let i = 1; i <= count; i++) {
    text += "|";
    if (i % 5 === 0) text += " ";
  }
  return text;
}

function askYesNo(question, then) {
  rl.question(question, (answer) => {
    const a = answer.trim();
    if (a === "Y" || a === "y") return then(true);
    if (a === "N" || a === "n") return then(false);
    console.log("Please, answer Y or N.");
    askYesNo(question, then);
  });
}

function askRemove(then) {
  rl.question("Remove (1 - 3): ", (answer) => {
    const a = answer.trim();
    if (!/^-?\d+$/.test(a)) {
      console.log("Please, type 1, 2, or 3 as your response.");
      askRemove(then);
    } else if (Number(a) < 1) {
      console.log("Must remove at least one match.");
      askRemove(then);
    } else if (Number(a) > 3) {
      console.log("Cannot remove more than three matches.");
      askRemove(then);
    } else {
      console.log();
      then(Number(a));
    }
  });
}

function computerTakes(matches) {
  return [3, 1, 1, 2][matches % 4];
}

function turn(matches, playerTurn) {
  console.log(`${playerTurn ? "Player" : "Computer"} Turn - Matches: ${matchesText(matches)}`);
  if (matches === 1) {
    console.log(playerTurn ? "Game Over - Computer wins." : "Game Over - Player wins.");
    console.log();
    askYesNo("Would you like to play again? (Y/N): ", (again) => {
      if (again) {
        console.log();
        round();
      } else {
        rl.close();
      }
    });
  } else if (playerTurn) {
    askRemove((taken) => turn(matches - taken, false));
  } else {
    const take = computerTakes(matches);
    console.log(`Computer removes ${take}.`);
    console.log();
    turn(matches - take, true);
  }
}

function round() {
  askYesNo("Would you like to go first? (Y/N): ", (first) => {
    console.log();
    turn(21, first);
  });
}

console.log("The game of Nim. The player to remove the last match loses.");
console.log();
round();
