# Not a student's program: correct.py that prints 2000 lines of "=" (200 KB) before it
# starts. tests/codebreaker.rs grades it to see that a case's (or assignment.yaml's) `limits:`
# reach every run, random games included (output_kb: 64 cuts it off; the default 1024 KiB
# does not). (A program that sleeps would not do: the grader skips sleeps, docs/performance.md.)
import sys

for _ in range(2000):
    print("=" * 99)


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
