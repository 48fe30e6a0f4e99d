# BUG: reads the code from a file always named code.txt, whatever the argument names
# (the cases whose file has another name: "Cannot read the code.").
# TARGET: duplicates (its file is secret.txt), missing-file (nowhere.txt: code.txt is not
# there either, so that one passes), random-games (random-code.txt).
# A copy of correct.py with that one bug.
import sys


def load_code():
    if len(sys.argv) != 2:
        return None
    try:
        with open("code.txt") as f:
            line = f.readline().strip()
    except OSError:
        return None
    if len(line) == 4 and all(ch in "123456" for ch in line):
        return line
    return None


def feedback(code, guess):
    black = 0
    code_left = []
    guess_left = []
    for c, g in zip(code, guess):
        if c == g:
            black += 1
        else:
            code_left.append(c)
            guess_left.append(g)
    white = 0
    for g in guess_left:
        if g in code_left:
            code_left.remove(g)
            white += 1
    return black, white


code = load_code()
if code is None:
    print("Cannot read the code.")
    sys.exit(1)

used = 0
while used < 10:
    print()
    try:
        guess = input("Your guess? ").strip()
    except EOFError:
        print(f"\nYou quit! The code was {code}.")
        sys.exit(0)
    if len(guess) != 4 or any(ch not in "123456" for ch in guess):
        print("Invalid guess.")
        continue
    used += 1
    black, white = feedback(code, guess)
    print(f"Black: {black} White: {white}")
    if black == 4:
        print(f"You win! Guesses: {used}")
        sys.exit(0)
print(f"You lose! The code was {code}.")
