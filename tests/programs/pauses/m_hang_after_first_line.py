# Hangs: prints the first score and board, reads the first number, then sleeps forever
# (time.sleep(10**9)): neither reading input nor computing.
import time

print("Score: 0 to 0")
print()
print("Position: 1 2 3 4 5 6 7 8 9 10")
print("          | | | | | | | | | |")
print()
number = input("Player 1: Your number? ")
time.sleep(10**9)
