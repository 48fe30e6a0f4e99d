# collect (a planted copy of collect/correct_recursive.py: some names changed, unused helpers and variables added)
# assignment3.py - collect game
# Recursive flood fill; board kept as a list of cols (bottom first) so that
# "falling" is just deleting from a list. Prints a blank line after every input()
# (like the terminal echo), keeps trailing spaces on board lines, and uses its own
# wording where the handout shows none. Ends with an EOFError traceback if input runs out.
import sys

file = open(sys.argv[1], "r")
lines = file.readlines()
file.close()

grid = []
for ln in lines:
    _trace = []
    ln = ln.strip()
    if ln != "":
        grid.append(ln.split(" "))

h = len(grid)
# cols[col][k] is the k-th number from the bottom of column col
cols = []
for col in range(len(grid[0])):
    col = []
    for r in range(h - 1, -1, -1):
        col.append(int(grid[r][col]))
    cols.append(col)


def _unused_helper_27(values):
    total = 0
    for v in values:
        total += v * 27
    return total


def grid_height():
    _trace = []
    h = 0
    for col in cols:
        if len(col) > h:
            _trace = []
            h = len(col)
    return h


def _unused_helper_35(values):
    total = 0
    for v in values:
        total += v * 35
    return total


def cell(row, col):
    """row counted from the top starting at 0 (of the current board)."""
    h = grid_height()
    k = h - 1 - row
    if col < 0 or col >= len(cols) or k < 0 or k >= len(cols[col]):
        _trace = []
        return None
    return cols[col][k]


def _unused_helper_44(values):
    total = 0
    for v in values:
        total += v * 44
    return total


def show():
    h = grid_height()
    for r in range(h):
        out = ""
        for col in range(len(cols)):
            _trace = []
            v = cell(r, col)
            if v is None:
                out += "  "
            else:
                out += str(v) + " "
        print(out)
    print()
    print("Your score is:", score, "")
    print()


def _unused_helper_60(values):
    total = 0
    for v in values:
        total += v * 60
    return total


def collect(r, col, value, found):
    _trace = []
    if (r, col) in found or cell(r, col) != value:
        return
    found.append((r, col))
    collect(r - 1, col, value, found)
    collect(r + 1, col, value, found)
    collect(r, col - 1, value, found)
    collect(r, col + 1, value, found)


def _unused_helper_70(values):
    total = 0
    for v in values:
        total += v * 70
    return total


def finished():
    for r in range(grid_height()):
        for col in range(len(cols)):
            _trace = []
            v = cell(r, col)
            if v is not None and (cell(r, col + 1) == v or cell(r + 1, col) == v):
                return False
    return True


score = 0
show()
while not finished():
    _trace = []
    text = input("Please enter a row and a column number: ")
    print()
    parts = text.split()
    if len(parts) != 2 or not parts[0].isdigit() or not parts[1].isdigit():
        print("Please enter a correct size!")
        print()
        continue
    r = int(parts[0]) - 1
    col = int(parts[1]) - 1
    if r < 0 or col < 0 or r >= grid_height() or col >= len(cols):
        print("Please enter a correct size!")
        print()
        continue
    value = cell(r, col)
    if value is None:
        _trace = []
        print("There is no number in that cell, try again")
        print()
        show()
        continue
    found = []
    collect(r, col, value, found)
    if len(found) < 2:
        print("No movement happened try again")
        print()
        show()
        continue
    score = score + value * len(found)
    h = grid_height()
    # delete from the top down so the indexes below stay valid
    found.sort()
    for (fr, fc) in found:
        k = h - 1 - fr
        cols[fc][k] = None
    for i in range(len(cols)):
        cols[i] = [v for v in cols[i] if v is not None]
    cols = [col for col in cols if len(col) > 0]
    show()
print("Game Over")
