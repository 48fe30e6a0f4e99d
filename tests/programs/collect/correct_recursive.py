# assignment3.py - collect game
# Recursive flood fill; board kept as a list of columns (bottom first) so that
# "falling" is just deleting from a list. Prints a blank line after every input()
# (like the terminal echo), keeps trailing spaces on board lines, and uses its own
# wording where the handout shows none. Ends with an EOFError traceback if input runs out.
import sys

file = open(sys.argv[1], "r")
lines = file.readlines()
file.close()

rows = []
for l in lines:
    l = l.strip()
    if l != "":
        rows.append(l.split(" "))

height = len(rows)
# columns[c][k] is the k-th number from the bottom of column c
columns = []
for c in range(len(rows[0])):
    col = []
    for r in range(height - 1, -1, -1):
        col.append(int(rows[r][c]))
    columns.append(col)


def current_height():
    h = 0
    for col in columns:
        if len(col) > h:
            h = len(col)
    return h


def cell(row, c):
    """row counted from the top starting at 0 (of the current board)."""
    h = current_height()
    k = h - 1 - row
    if c < 0 or c >= len(columns) or k < 0 or k >= len(columns[c]):
        return None
    return columns[c][k]


def show():
    h = current_height()
    for r in range(h):
        out = ""
        for c in range(len(columns)):
            v = cell(r, c)
            if v is None:
                out += "  "
            else:
                out += str(v) + " "
        print(out)
    print()
    print("Your score is:", score, "")
    print()


def collect(r, c, value, found):
    if (r, c) in found or cell(r, c) != value:
        return
    found.append((r, c))
    collect(r - 1, c, value, found)
    collect(r + 1, c, value, found)
    collect(r, c - 1, value, found)
    collect(r, c + 1, value, found)


def finished():
    for r in range(current_height()):
        for c in range(len(columns)):
            v = cell(r, c)
            if v is not None and (cell(r, c + 1) == v or cell(r + 1, c) == v):
                return False
    return True


score = 0
show()
while not finished():
    text = input("Please enter a row and a column number: ")
    print()
    parts = text.split()
    if len(parts) != 2 or not parts[0].isdigit() or not parts[1].isdigit():
        print("Please enter a correct size!")
        print()
        continue
    r = int(parts[0]) - 1
    c = int(parts[1]) - 1
    if r < 0 or c < 0 or r >= current_height() or c >= len(columns):
        print("Please enter a correct size!")
        print()
        continue
    value = cell(r, c)
    if value is None:
        print("There is no number in that cell, try again")
        print()
        show()
        continue
    found = []
    collect(r, c, value, found)
    if len(found) < 2:
        print("No movement happened try again")
        print()
        show()
        continue
    score = score + value * len(found)
    h = current_height()
    # delete from the top down so the indexes below stay valid
    found.sort()
    for (fr, fc) in found:
        k = h - 1 - fr
        columns[fc][k] = None
    for i in range(len(columns)):
        columns[i] = [v for v in columns[i] if v is not None]
    columns = [col for col in columns if len(col) > 0]
    show()
print("Game Over")
