"""Reference solution of the tic-tac-toe handout (handout.md), written for grade's test suite.

Deterministic: it draws nothing at random, so the same input always gives the same output.
"""

LINES = [
    (0, 1, 2), (3, 4, 5), (6, 7, 8),  # rows
    (0, 3, 6), (1, 4, 7), (2, 5, 8),  # columns
    (0, 4, 8), (2, 4, 6),             # diagonals
]


def show(board):
    for row in range(3):
        print(" ".join(board[row * 3:row * 3 + 3]))


def winner(board):
    for a, b, c in LINES:
        if board[a] != "." and board[a] == board[b] == board[c]:
            return board[a]
    return None


def main():
    board = ["."] * 9
    player = "X"
    show(board)
    while True:
        answer = input(f"Player {player}, choose a cell (1-9): ").strip()
        if not answer.isdigit() or not 1 <= int(answer) <= 9:
            print("Invalid cell.")
            continue
        cell = int(answer) - 1
        if board[cell] != ".":
            print("Cell taken.")
            continue
        board[cell] = player
        show(board)
        if winner(board):
            print(f"Player {player} wins!")
            return
        if "." not in board:
            print("It's a draw!")
            return
        player = "O" if player == "X" else "X"


if __name__ == "__main__":
    main()
