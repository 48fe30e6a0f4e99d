# BUG: only one neighbour is ever scored (elif-style: the right neighbour is checked only if the left one did not score); the wrong score is printed in colour like a right one
# TARGET: scoring with both neighbours: "possible that a player can get up to three points" (three-points-and-zero: scores)
# CS118 Programming Assignment - The Game of M
# Made pretty with ANSI colour codes (from a "colours in the terminal" tutorial): player 1's
# score in blue, player 2's in red, the numbers on the board in green, error messages in red,
# the end in bold. Board drawn the way the handout's first example draws it; "Game over!"
# before the result. The window stays open at the end: input("Press Enter to exit...").
# At the end of input, input() raises EOFError and the program dies with a traceback.

EMPTY = -1          # dummy value for an empty position
SIZE = 10

RESET = "\033[0m"
BOLD = "\033[1m"
RED = "\033[31m"
GREEN = "\033[32m"
BLUE = "\033[34m"


def show_score(scores):
    print("Score: " + BLUE + str(scores[0]) + RESET + " to " + RED + str(scores[1]) + RESET)
    print()


def show_board(board):
    print("Position: 1 2 3 4 5 6 7 8 9 10")
    cells = []
    for value in board:
        if value == EMPTY:
            cells.append("|")
        else:
            cells.append(GREEN + str(value) + RESET + " |")
    print("          " + " ".join(cells))
    print()


def is_multiple(a, b):
    """True if a is an integer multiple of b or b of a (0 is a multiple of everything)."""
    if a == 0 or b == 0:
        return True
    return a % b == 0 or b % a == 0


def points_for(board, pos, number):
    points = 1
    for n in (pos - 1, pos + 1):
        if 0 <= n < SIZE and board[n] != EMPTY and is_multiple(number, board[n]):
            points += 1
            break
    return points


def main():
    board = [EMPTY] * SIZE
    used = []
    scores = [0, 0]
    player = 0
    for turn in range(SIZE):
        show_score(scores)
        show_board(board)
        while True:
            number = input("Player " + str(player + 1) + ": Your number? ")
            position = input("Position to insert at? ")
            problems = []
            try:
                number = int(number)
            except ValueError:
                problems.append("Your number must be an integer.")
                number = None
            try:
                position = int(position)
            except ValueError:
                problems.append("The position must be an integer.")
                position = None
            if number is not None:
                if number < 0 or number > 9:
                    problems.append("The number must be between 0 and 9.")
                elif number in used:
                    problems.append("The number " + str(number) + " has already been used.")
            if position is not None:
                if position < 1 or position > SIZE:
                    problems.append("The position must be between 1 and 10.")
                elif board[position - 1] != EMPTY:
                    problems.append("Position " + str(position) + " is not empty.")
            if not problems:
                break
            for p in problems:
                print(RED + p + RESET)
        index = position - 1
        scores[player] += points_for(board, index, number)
        board[index] = number
        used.append(number)
        player = 1 - player
    show_score(scores)
    show_board(board)
    print(BOLD + "Game over!" + RESET)
    if scores[0] > scores[1]:
        print(BOLD + BLUE + "Player 1 wins!" + RESET)
    elif scores[1] > scores[0]:
        print(BOLD + RED + "Player 2 wins!" + RESET)
    else:
        print(BOLD + "It's a tie!" + RESET)
    input("Press Enter to exit...")


main()
