# Programming Assignment 3 - number board collect game, as the handout asks it packed:
# assignment3.py (named in the handout, no __main__ guard) beside its helper module board.py.
# usage: python3 assignment3.py input.txt
import sys

from board import apply_gravity, find_group, game_over, print_board, print_score, read_board


def main():
    board = read_board(sys.argv[1])
    score = 0
    print_board(board)
    print_score(score)
    while not game_over(board):
        answer = input("Please enter a row and a column number: ")
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
        score += board[row][col] * len(group)
        for r, c in group:
            board[r][c] = None
        board = apply_gravity(board)
        print_board(board)
        print_score(score)
    print()
    print("Game over")


main()
