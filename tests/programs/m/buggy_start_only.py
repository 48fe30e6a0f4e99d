# BUG: prints the first score, the empty board and the first prompt, reads the first answer
# and stops: no turn is ever played.
# TARGET: credit once (issue 20) — must earn at most 5 % of m's case points (tests/fairness.rs).
print("Score: 0 to 0")
print()
print("Position: 1 2 3 4 5 6 7 8 9 10")
print("          | | | | | | | | | |")
print()
input("Player 1: Your number? ")
