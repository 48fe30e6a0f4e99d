// Echo loop through Node's readline: the program waits in epoll_wait, then reads a
// non-blocking stdin until EAGAIN. Prompts "Line N? ", answers "You said X", ends at EOF.
const readline = require("readline");
const rl = readline.createInterface({ input: process.stdin, terminal: false });
let n = 0;
const ask = () => process.stdout.write(`Line ${n}? `);
rl.on("line", (line) => {
  process.stdout.write(`You said ${line}\n`);
  n += 1;
  ask();
});
rl.on("close", () => process.stdout.write("Bye\n"));
ask();
