# CS 135 Assignment 4 - Nim, in two files: main.py (the game) imports nim_helpers.py.
# No main guard at the bottom: main.py is found by its name.
from nim_helpers import ask_remove, ask_yes_no, computer_move, matches_text

print("The game of Nim. The player to remove the last match loses.")
while True:
    player_turn = ask_yes_no("Would you like to go first? (Y/N): ") == "Y"
    matches = 21
    while True:
        print(("Player" if player_turn else "Computer") + " Turn - Matches: " + matches_text(matches))
        if matches == 1:
            print("Game Over - Computer wins." if player_turn else "Game Over - Player wins.")
            break
        if player_turn:
            matches -= ask_remove()
        else:
            take = computer_move(matches)
            print(f"Computer removes {take}.")
            matches -= take
        player_turn = not player_turn
    if ask_yes_no("Would you like to play again? (Y/N): ") != "Y":
        break
