# BUG: the score adds the number of removed cells only, not value * count; the wrong score is painted digit by digit like a right one
# TARGET: scoring "c * n" (figure-4: scores; 32 after the first move)
# Programming Assignment 3 - number board collect game
# usage: python3 assignment3.py input.txt
# (an extra blank line before "Game over"; otherwise laid out like Figure 4)
# Every digit has its own colour (ANSI codes), on the board and in the score, so a score of 32
# is a yellow 3 and a green 2. The screen is cleared after every answer with the usual
# os.system('cls' if os.name == 'nt' else 'clear'), and at the end the window stays open:
# input("Press Enter to exit...").
import os
import sys

RESET = "\033[0m"
# one colour per digit 0..9
DIGIT_COLOURS = ["\033[90m", "\033[31m", "\033[32m", "\033[33m", "\033[34m",
                 "\033[35m", "\033[36m", "\033[91m", "\033[92m", "\033[93m"]


def paint(number):
    """The number with every digit in its own colour."""
    return "".join(DIGIT_COLOURS[int(d)] + d + RESET for d in str(number))


def clear_screen():
    os.system('cls' if os.name == 'nt' else 'clear')


def read_board(file_name):
    board = []
    with open(file_name) as f:
        for line in f.read().split("\n"):
            if line.strip() == "":
                continue
            board.append([int(x) for x in line.split()])
    return board


def print_board(board):
    print()
    for row in board:
        text = " ".join(" " if cell is None else paint(cell) for cell in row)
        print(text.rstrip())
    print()


def print_score(score):
    print("Your score is: " + paint(score))
    print()


def find_group(board, row, col):
    """All cells connected to (row, col) (left, right, above, below) holding the same number."""
    value = board[row][col]
    group = [(row, col)]
    seen = {(row, col)}
    i = 0
    while i < len(group):
        r, c = group[i]
        i += 1
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nr, nc = r + dr, c + dc
            if 0 <= nr < len(board) and 0 <= nc < len(board[nr]) and (nr, nc) not in seen:
                if board[nr][nc] == value:
                    seen.add((nr, nc))
                    group.append((nr, nc))
    return group


def apply_gravity(board):
    rows = len(board)
    cols = len(board[0])
    for c in range(cols):
        column = [board[r][c] for r in range(rows) if board[r][c] is not None]
        column = [None] * (rows - len(column)) + column
        for r in range(rows):
            board[r][c] = column[r]
    # remove the columns that became empty, the rest moves left
    keep = [c for c in range(cols) if any(board[r][c] is not None for r in range(rows))]
    board = [[row[c] for c in keep] for row in board]
    # drop the empty rows at the top
    while board and all(cell is None for cell in board[0]):
        board.pop(0)
    return board


def game_over(board):
    for r in range(len(board)):
        for c in range(len(board[r])):
            v = board[r][c]
            if v is None:
                continue
            if c + 1 < len(board[r]) and board[r][c + 1] == v:
                return False
            if r + 1 < len(board) and board[r + 1][c] == v:
                return False
    return True


def main():
    board = read_board(sys.argv[1])
    score = 0
    print_board(board)
    print_score(score)
    while not game_over(board):
        answer = input("Please enter a row and a column number: ")
        clear_screen()
        parts = answer.split()
        try:
            row, col = int(parts[0]), int(parts[1])
            if len(parts) != 2:
                raise ValueError
        except (ValueError, IndexError):
            row, col = 0, 0
        if row < 1 or col < 1 or row > len(board) or col > len(board[0]):
            print()
            print("Please enter a correct size!")
            print()
            continue
        row -= 1
        col -= 1
        group = find_group(board, row, col) if board[row][col] is not None else []
        if len(group) < 2:
            print()
            print("No movement happened try again")
            print_board(board)
            print_score(score)
            continue
        score += len(group)
        for r, c in group:
            board[r][c] = None
        board = apply_gravity(board)
        print_board(board)
        print_score(score)
    print()
    print("Game over")
    input("Press Enter to exit...")


main()
