# CS118 Programming Assignment - The Game of M
# A class per concept (Board, Scoreboard); input comes through a generator of tokens read
# from sys.stdin (no input() call anywhere) and a small helper `ask` that prints the prompt
# and takes the next token; the turns are a `for` loop, a refused answer is asked again in a
# `while True` loop with `break`. Own error wording. At the end of input: "Goodbye.", exit 0.
import sys

SIZE = 10


def tokens():
    """Yields the whitespace-separated words typed, one line at a time."""
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        for word in line.split():
            yield word


class Board:
    def __init__(self):
        self.cells = [None] * SIZE

    def show(self):
        print("Position: 1 2 3 4 5 6 7 8 9 10")
        parts = []
        for value in self.cells:
            parts.append("|" if value is None else "%d |" % value)
        print(" " * 10 + " ".join(parts))
        print()

    def is_free(self, position):
        return self.cells[position - 1] is None

    def points_for(self, position, number):
        points = 1
        for index in (position - 2, position):
            if 0 <= index < SIZE and self.cells[index] is not None:
                other = self.cells[index]
                if number == 0 or other == 0 or number % other == 0 or other % number == 0:
                    points += 1
        return points

    def place(self, position, number):
        self.cells[position - 1] = number


class Scoreboard:
    def __init__(self):
        self.points = [0, 0]

    def show(self):
        print("Score: %d to %d" % (self.points[0], self.points[1]))
        print()

    def result(self):
        if self.points[0] > self.points[1]:
            return "Player 1 wins!"
        if self.points[1] > self.points[0]:
            return "Player 2 wins!"
        return "It's a tie!"


def ask(stream, prompt):
    print(prompt, end="", flush=True)
    return next(stream)


def as_int(word):
    try:
        return int(word)
    except ValueError:
        return None


def main():
    stream = tokens()
    board = Board()
    scores = Scoreboard()
    used = set()
    for turn in range(SIZE):
        player = turn % 2
        scores.show()
        board.show()
        while True:
            number = as_int(ask(stream, "Player %d: Your number? " % (player + 1)))
            position = as_int(ask(stream, "Position to insert at? "))
            problems = []
            if number is None:
                problems.append("Sorry, the number has to be a whole number.")
            elif not 0 <= number <= 9:
                problems.append("Sorry, the number must be 0 to 9.")
            elif number in used:
                problems.append("Sorry, %d was already played." % number)
            if position is None:
                problems.append("Sorry, the position has to be a whole number.")
            elif not 1 <= position <= SIZE:
                problems.append("Sorry, the position must be 1 to 10.")
            elif not board.is_free(position):
                problems.append("Sorry, position %d is already taken." % position)
            if not problems:
                break
            for problem in problems:
                print(problem)
        print()
        scores.points[player] += board.points_for(position, number)
        board.place(position, number)
        used.add(number)
    scores.show()
    board.show()
    print(scores.result())


try:
    main()
except StopIteration:
    print("Goodbye.")
