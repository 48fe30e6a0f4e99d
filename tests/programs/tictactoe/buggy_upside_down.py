# Tic-tac-toe with one bug: the board is drawn upside down, its bottom row (cells 7 8 9) first
# (rule 1: cells 1 2 3 are the top row).
board = ["."] * 9
WINS = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def draw_board():
    for r in (2, 1, 0):
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
        break
    if "." not in board:
        print("It's a draw!")
        break
    turn = "O" if turn == "X" else "X"
