# Tic-tac-toe with one bug: after "Cell taken." the turn passes to the other player instead of
# the same player being asked again (handout rule 4). Prompts as the reference's.
board = ["."] * 9
WINS = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def draw_board():
    for r in range(3):
        print(" ".join(board[3 * r:3 * r + 3]))


turn = "X"
draw_board()
while True:
    text = input("Player " + turn + ", choose a cell (1-9): ").strip()
    if not text.isdigit() or not 1 <= int(text) <= 9:
        print("Invalid cell.")
        continue
    n = int(text)
    if board[n - 1] != ".":
        print("Cell taken.")
        turn = "O" if turn == "X" else "X"
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
