"""Nim helpers (CS 135 Assignment 4): reading answers and the computer's strategy."""
import sys


def read_line():
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    return line.strip()


def ask_yes_no(question):
    while True:
        print(question, end="", flush=True)
        answer = read_line()
        if answer in ("Y", "y", "N", "n"):
            return answer.upper()
        print("Please, answer Y or N.")


def ask_remove():
    while True:
        print("Remove (1 - 3): ", end="", flush=True)
        answer = read_line()
        try:
            amount = int(answer)
        except ValueError:
            print("Please, type 1, 2, or 3 as your response.")
            continue
        if amount < 1:
            print("Must remove at least one match.")
        elif amount > 3:
            print("Cannot remove more than three matches.")
        else:
            return amount


def computer_move(matches):
    return {0: 3, 3: 2}.get(matches % 4, 1)


def matches_text(count):
    return "".join("|" + (" " if i % 5 == 0 else "") for i in range(1, count + 1))
