# Tic-tac-toe with one bug: after "Player X wins!" or "It's a draw!" the game does not end (rule 5, 6):
# the loop goes on asking for a cell, and answers every line it reads ("Invalid cell.", a board).
board = ["."] * 9
WINS = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def draw_board():
    for r in range(3):
        print(" ".join(board[3 * r:3 * r + 3]))


turn = "X"
draw_board()
while True:
    text = input("Where does " + turn + " go? ")
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1 or n > 9:
        print("Invalid cell.")
        continue
    if board[n - 1] != ".":
        print("Cell taken.")
        continue
    board[n - 1] = turn
    draw_board()
    if any(board[a] == board[b] == board[c] == turn for a, b, c in WINS):
        print("Player " + turn + " wins!")
        continue
    if "." not in board:
        print("It's a draw!")
        continue
    turn = "O" if turn == "X" else "X"
