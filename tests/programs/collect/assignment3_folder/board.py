"""Board helpers for the collect game (Programming Assignment 3)."""


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
        text = " ".join(" " if cell is None else str(cell) for cell in row)
        print(text.rstrip())
    print()


def print_score(score):
    print("Your score is: " + str(score))
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
