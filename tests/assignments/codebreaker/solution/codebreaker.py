"""Reference solution of the codebreaker handout (handout.md), written for grade's test suite.

Deterministic: the secret code is read from the file named by the first argument, and nothing
is drawn at random, so the same file and input always give the same output.
"""

import sys

DIGITS = "123456"
GUESSES = 10


def is_code(text):
    return len(text) == 4 and all(c in DIGITS for c in text)


def read_code(argv):
    """The code from the first line of the file argv[1] names, or None."""
    if len(argv) < 2:
        return None
    try:
        with open(argv[1], encoding="utf-8") as f:
            first = f.readline().strip()
    except (OSError, UnicodeDecodeError):
        return None
    return first if is_code(first) else None


def score(code, guess):
    """(black, white): digits in place, and the other common digits (each matched once)."""
    black = sum(c == g for c, g in zip(code, guess))
    common = sum(min(code.count(d), guess.count(d)) for d in DIGITS)
    return black, common - black


def main():
    code = read_code(sys.argv)
    if code is None:
        print("Cannot read the code.")
        return
    guesses = 0
    while guesses < GUESSES:
        try:
            guess = input(f"Guess {guesses + 1} of {GUESSES}: ").strip(" ")
        except EOFError:
            print()
            print(f"You quit! The code was {code}.")
            return
        if not is_code(guess):
            print("Invalid guess.")
            continue
        guesses += 1
        black, white = score(code, guess)
        print(f"Black: {black} White: {white}")
        if black == 4:
            print(f"You win! Guesses: {guesses}")
            return
    print(f"You lose! The code was {code}.")


if __name__ == "__main__":
    main()
