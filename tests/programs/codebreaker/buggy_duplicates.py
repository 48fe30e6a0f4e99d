# BUG: white counts every guess digit found anywhere in the code, even one already matched
# (the code 1122 and the guess 2222: "White: 2" instead of 0).
# TARGET: duplicates (rule 4: each digit of the code matched at most once).
# A copy of correct.py with that one bug.
import sys


def load_code():
    if len(sys.argv) != 2:
        return None
    try:
        with open(sys.argv[1]) as f:
            line = f.readline().strip()
    except OSError:
        return None
    if len(line) == 4 and all(ch in "123456" for ch in line):
        return line
    return None


def feedback(code, guess):
    black = 0
    white = 0
    for i, g in enumerate(guess):
        if code[i] == g:
            black += 1
        elif g in code:
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
