"""Tic-tac-toe with a framed board, blank lines and chatty prompts: all free in the handout."""
import sys


def render(cells):
    print()
    for row in range(3):
        print(" " + " | ".join(cells[row * 3:row * 3 + 3]))
        if row < 2:
            print("---+---+---")
    print()


def won(cells, mark):
    lines = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
    return any(all(cells[i] == mark for i in line) for line in lines)


def main():
    print("Welcome to TIC-TAC-TOE!")
    cells = ["."] * 9
    mark = "X"
    render(cells)
    while True:
        sys.stdout.write(f"{mark}'s move > ")
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:
            return
        line = line.strip()
        if len(line) != 1 or line not in "123456789":
            print("  INVALID CELL.  ")
            continue
        index = int(line) - 1
        if cells[index] != ".":
            print("cell taken.")
            continue
        cells[index] = mark
        render(cells)
        if won(cells, mark):
            print(f"PLAYER {mark} WINS!")
            print("Thanks for playing.")
            return
        if all(c != "." for c in cells):
            print("It's a draw!")
            return
        mark = "O" if mark == "X" else "X"


main()
