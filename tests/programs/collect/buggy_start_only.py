# BUG: prints the board read from the file, the score 0 and the first prompt, reads the
# first answer and stops: no cell is ever destroyed.
# TARGET: credit once (issue 20) — must earn at most 5 % of collect's case points
# (tests/fairness.rs).
import sys

with open(sys.argv[1]) as board_file:
    rows = [line.split() for line in board_file if line.strip()]
for row in rows:
    print(" ".join(row))
print()
print("Your score is: 0")
print()
input("Please enter a row and a column number: ")
