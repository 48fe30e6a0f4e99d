"""Runs a program and rewrites its standard output in real time, in one style a student might
use (tests/fairness.rs): the output-restyling wrapper behind the style-invariance test.

Usage: python3 restyle.py CONFIG.json COMMAND [ARGS...]

CONFIG holds {"style": NAME, "reword": [[PATTERN, REPLACEMENT], ...], "board": PATTERN}.
Styles: "plain" (faithful: the output unchanged), "upper", "lower", "blank_lines" (an empty
line after every line), "trailing" (trailing spaces), "greeting" (a welcome line first),
"reworded" (a whole line matching a PATTERN is replaced, `\\1` allowed), "boxed" (the lines
matching "board" framed in a box; lines whose cells are already between bars get the border
lines only), "spaced" (those lines drawn half as wide again),
"prompt_line" (a prompt left open when the program waits for input gets its own line) and
"unflushed" (a prompt is held back while the program waits, and appears only with the next
line, as from a program that never flushes before reading). Habits from home machines (issue
30): "colours" (every digit in a colour of its own, so a code stands between the digits of a
number, runs of pipes in yellow, capitalised words bold, each reset), "crlf" (Windows line
ends, "\r\n"), "clear_screen" (the screen cleared after every answer, "\033[2J\033[H"),
"spinner" (before the output that follows an answer, "Thinking... |" turned with backspaces,
then a carriage return and an erased line: the terminal shows only what comes after) and
"final_pause" (after the program ends, "Press Enter to exit..." and one more line read, as
input() or cin.get() keeping a console window open). "renumber" (every number on a
board line one higher) breaks a rule on purpose: the tests' negative control.

The program gets a pipe as stdin. The wrapper reads its own stdin only when the program waits
for input (a thread asleep reading fd 0, or an idle event loop, seen in /proc) and after it
has written out everything the program printed: so the grader, which watches the wrapper's
reads, places each input line exactly where the program asked for it.
"""

import fcntl
import json
import os
import re
import select
import signal
import struct
import sys
import termios
import time

READS = {0, 17, 19, 295, 327}  # read, pread64, readv, preadv, preadv2 (x86_64)
WAITS = {7, 23, 232, 270, 271, 281, 441}  # poll, select, epoll_wait, pselect6, ppoll, ...


def waiting(pid):
    """True when the program sleeps waiting for input: a thread blocked reading fd 0, or no
    thread running and one asleep in a poll/select/epoll (an event loop with nothing to do)."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return False
    in_wait = False
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/stat", "rb") as f:
                stat = f.read()
            with open(f"/proc/{pid}/task/{tid}/syscall", "rb") as f:
                call = f.read().split()
        except OSError:
            continue
        state = stat[stat.rindex(b")") + 2 : stat.rindex(b")") + 3]
        if state in (b"R", b"D"):
            return False
        if not call or call[0] == b"running":
            return False
        try:
            nr = int(call[0])
        except ValueError:
            continue
        if nr in READS and len(call) > 1 and int(call[1], 16) == 0:
            return True
        if nr in WAITS:
            in_wait = True
    return in_wait


def spaced(line):
    """A board line drawn wider: every column half as wide again, so cells one apart (single
    spaces, blank cells as one space) stand two apart, in the same columns relative to each
    other ("1 0     8" -> "1  0        8")."""
    out = ""
    for match in re.finditer(r"\S+", line):
        column = match.start() + match.start() // 2
        if out and column <= len(out):
            column = len(out) + 1
        out = out.ljust(column) + match.group()
    return out


RESET = "\033[0m"
DIGIT_COLOURS = ["\033[90m", "\033[31m", "\033[32m", "\033[33m", "\033[34m",
                 "\033[35m", "\033[36m", "\033[91m", "\033[92m", "\033[93m"]
CLEAR_SCREEN = "\033[2J\033[H"
SPINNER = "Thinking... |\b/\b-\b\\\b|\r\033[2K"


def colours(text):
    """The text as a student's colourful program prints it: each digit in its own colour (a
    code between the digits of a number: "12" is a red 1 and a green 2), runs of pipes in
    yellow, words starting with a capital letter in bold; every piece reset after it."""
    def paint(match):
        piece = match.group()
        if piece[0].isdigit():
            return DIGIT_COLOURS[int(piece)] + piece + RESET
        if piece[0] == "|":
            return "\033[33m" + piece + RESET
        return "\033[1m" + piece + RESET
    return re.sub(r"\d|\|+|\b[A-Z][A-Za-z]*", paint, text)


def unread(fd):
    """Bytes written to the program's stdin that it has not read yet."""
    buf = fcntl.ioctl(fd, termios.FIONREAD, struct.pack("i", 0))
    return struct.unpack("i", buf)[0]


class Restyler:
    """Turns the program's output, as it comes, into the styled output."""

    def __init__(self, config):
        self.style = config.get("style", "plain")
        self.reword = [(re.compile(p), r) for p, r in config.get("reword", [])]
        board = config.get("board")
        self.board = re.compile(board) if board else None
        self.pending = ""  # a line not finished yet
        self.box_lines = []  # the lines of a board being boxed
        self.out = []
        self.answered = False  # an answer was typed and nothing printed since

    def emit(self, text):
        self.out.append(text)

    def close_box(self):
        if not self.box_lines:
            return
        width = max(len(line) for line in self.box_lines)
        border = "+" + "-" * (width + 2) + "+\n"
        self.emit(border)
        # Cells already drawn between bars: the border lines only (bars around them would
        # read as one more, empty, cell).
        bars = not any("|" in body for body in self.box_lines)
        for body in self.box_lines:
            if bars:
                self.emit("| " + body.ljust(width) + " |\n")
            else:
                self.emit("  " + body + "\n")
        self.emit(border)
        self.box_lines = []

    def line(self, text, complete):
        """One line of output (without its newline); `complete` when the newline came."""
        style = self.style
        end = "\n" if complete else ""
        is_board = complete and self.board is not None and self.board.fullmatch(text.rstrip())
        if style == "boxed":
            if is_board:
                # Kept until the board ends (before anything else is written), to draw the
                # box as wide as its widest line.
                self.box_lines.append(text.rstrip())
                return
            self.close_box()
        elif style == "spaced" and is_board:
            text = spaced(text)
        elif style == "renumber" and is_board:
            # A negative control: every number on the board one higher (coins from 1).
            text = re.sub(r"\d+", lambda m: str(int(m.group()) + 1), text)
        elif style == "upper":
            text = text.upper()
        elif style == "lower":
            text = text.lower()
        elif style == "trailing" and complete:
            text = text + "   "
        elif style == "reworded":
            # A whole line, or a prompt the program waits after.
            for pattern, replacement in self.reword:
                if pattern.fullmatch(text.strip()):
                    text = pattern.sub(replacement, text.strip())
                    break
        elif style == "colours":
            text = colours(text)
        elif style == "crlf" and complete:
            end = "\r\n"
        if self.answered:
            self.answered = False
            if style == "clear_screen":
                self.emit(CLEAR_SCREEN)
            elif style == "spinner":
                self.emit(SPINNER)
        self.emit(text + end)
        if style == "blank_lines" and complete:
            self.emit("\n")

    def feed(self, data):
        """Output as it arrives: every finished line is restyled and written at once."""
        self.pending += data
        *lines, self.pending = self.pending.split("\n")
        for text in lines:
            self.line(text, True)

    def at_input(self):
        """The program waits for input: show what it has printed (its prompt), as the style
        says."""
        if self.style == "unflushed":
            return
        if self.pending:
            text, self.pending = self.pending, ""
            if self.style == "prompt_line":
                self.line(text, True)
            else:
                self.close_box()
                self.line(text, False)
        else:
            self.close_box()

    def after_input(self):
        """An answer was passed on to the program: the next output starts a new screen."""
        self.answered = True

    def at_exit(self):
        if self.pending:
            text, self.pending = self.pending, ""
            self.close_box()
            self.line(text, False)
        self.close_box()

    def take(self):
        text, self.out = "".join(self.out), []
        return text.encode("utf-8", "surrogateescape")


def write_all(fd, data):
    while data:
        n = os.write(fd, data)
        data = data[n:]


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        config = json.load(f)
    command = sys.argv[2:]
    restyler = Restyler(config)
    if config.get("style") == "greeting":
        restyler.emit("Hello! Welcome to my program. Have fun!\n\n")
    to_child_r, to_child_w = os.pipe()
    from_child_r, from_child_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.dup2(to_child_r, 0)
        os.dup2(from_child_w, 1)
        for fd in (to_child_r, to_child_w, from_child_r, from_child_w):
            os.close(fd)
        try:
            os.execvp(command[0], command)
        except OSError as error:
            os.write(2, f"restyle: cannot run {command[0]}: {error}\n".encode())
            os._exit(127)
    os.close(to_child_r)
    os.close(from_child_w)
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    os.set_blocking(from_child_r, False)
    decoder_tail = b""
    stdin_open = True
    pause = 0.0002
    poller = select.poll()
    poller.register(from_child_r, select.POLLIN)

    def drain():
        """Reads all the output the program has written; False at its end."""
        nonlocal decoder_tail
        while True:
            try:
                chunk = os.read(from_child_r, 65536)
            except BlockingIOError:
                return True
            if not chunk:
                return False
            data = decoder_tail + chunk
            # Keep an unfinished UTF-8 sequence for the next chunk.
            cut = len(data)
            for back in range(1, min(4, len(data)) + 1):
                byte = data[-back]
                if byte & 0xC0 == 0x80:
                    continue
                if byte >= 0xC0:
                    need = 2 if byte < 0xE0 else 3 if byte < 0xF0 else 4
                    if need > back:
                        cut = len(data) - back
                break
            decoder_tail = data[cut:]
            restyler.feed(data[:cut].decode("utf-8", "surrogateescape"))

    while True:
        events = poller.poll(pause * 1000)
        if events:
            alive = drain()
            write_all(1, restyler.take())
            if not alive:
                break
            pause = 0.0002
            continue
        if stdin_open and unread(to_child_w) == 0 and waiting(pid):
            if not drain():
                write_all(1, restyler.take())
                break
            restyler.at_input()
            write_all(1, restyler.take())
            line = os.read(0, 65536)
            if line:
                try:
                    write_all(to_child_w, line)
                except BrokenPipeError:
                    pass
                restyler.after_input()
            else:
                stdin_open = False
                os.close(to_child_w)
            pause = 0.0002
            continue
        pause = min(pause * 2, 0.005)
    if decoder_tail:
        restyler.feed(decoder_tail.decode("utf-8", "surrogateescape"))
    restyler.at_exit()
    write_all(1, restyler.take())
    _, status = os.waitpid(pid, 0)
    if config.get("style") == "final_pause":
        # Keep the window open: one more line, whatever it is (end of input ends it too).
        write_all(1, b"Press Enter to exit...")
        os.read(0, 65536)
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        signal.signal(sig, signal.SIG_DFL)
        os.kill(os.getpid(), sig)
    sys.exit(os.WEXITSTATUS(status))


if __name__ == "__main__":
    main()
