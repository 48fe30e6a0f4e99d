# CS118 Programming Assignment - The Game of M
# correct_plain.py with one bug.
# BUG: after the game the program does not end: it keeps reading input, printing nothing
# TARGET: "The program must end after the tenth insertion" (exit, any full game, e.g. full-game-tie)

EMPTY = -1          # dummy value for an empty position
SIZE = 10


def show_board(board):
    print("Position: 1 2 3 4 5 6 7 8 9 10")
    cells = []
    for value in board:
        if value == EMPTY:
            cells.append("|")
        else:
            cells.append(str(value) + " |")
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
    return points


def main():
    board = [EMPTY] * SIZE
    used = []
    scores = [0, 0]
    player = 0
    for turn in range(SIZE):
        print("Score:", scores[0], "to", scores[1])
        print()
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
                print(p)
        index = position - 1
        scores[player] += points_for(board, index, number)
        board[index] = number
        used.append(number)
        player = 1 - player
    print("Score:", scores[0], "to", scores[1])
    print()
    show_board(board)
    print("Game over!")
    if scores[0] > scores[1]:
        print("Player 1 wins!")
    elif scores[1] > scores[0]:
        print("Player 2 wins!")
    else:
        print("It's a tie!")


main()
# Waits for more after the game, silently: end of input is skipped over, as if it never came.
while True:
    try:
        input()
    except EOFError:
        continue
