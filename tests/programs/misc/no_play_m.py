# NOT A GAME: prints an empty board, a score and the usual messages of the Game of M once,
# reads no input and exits. Must score at most 5 % of m's points.
print("Score: 0 to 0")
print("Position: 1 2 3 4 5 6 7 8 9 10")
print("          _ _ _ _ _ _ _ _ _ _")
print("Player 1, choose a number (0-9): ")
print("That number has already been used.")
print("That position is already occupied.")
print("The position must be between 1 and 10.")
print("Player 1 wins!")
print("Player 2 wins!")
print("It's a tie!")
