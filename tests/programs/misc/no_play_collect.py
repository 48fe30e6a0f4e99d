# NOT A GAME: prints each message the collect handout fixes once, reads neither the board
# file nor any input, and exits. Must score at most 5 % of collect's points.
print("Your score is: 0")
print("Please enter a row and a column number: ")
print("No movement happened try again")
print("Please enter a correct size!")
print("Game over")
