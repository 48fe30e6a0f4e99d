# Silver Dollar Game in Python: correct_python.py with one bug.
# BUG: an illegal move is refused without a message: the prompt just comes again
# TARGET: "If any illegal move is entered, an error message should be printed" (illegal-move-message)
import random


def make_strip(coins):
    squares = []
    for coin in range(coins):
        squares.extend([None] * (random.randint(1, 6) - 1))
        squares.append(coin)
    return squares


def legal(squares, coin, distance):
    if coin not in squares or distance < 1:
        return False
    where = squares.index(coin)
    target = where - distance
    if target < 0:
        return False
    return all(s is None for s in squares[target:where])


def finished(squares):
    coins = [s for s in squares if s is not None]
    return squares[:len(coins)] == coins


def draw(squares):
    return "|" + "|".join(" . " if s is None else f" {s} " for s in squares) + "|"


def main():
    print("How many coins?")
    coins = int(input())
    squares = make_strip(coins)
    while finished(squares):
        squares = make_strip(coins)
    player = 1
    while True:
        print(draw(squares))
        if finished(squares):
            print(f"Player {3 - player} wins!")
            return
        print(f"It's player {player}'s turn.")
        while True:
            parts = input(f"Player {player}: Enter your move: ").split()
            try:
                coin, distance = int(parts[0]), int(parts[1])
            except (ValueError, IndexError):
                coin, distance = -1, 0
            if len(parts) == 2 and legal(squares, coin, distance):
                break
        where = squares.index(coin)
        squares[where] = None
        squares[where - distance] = coin
        player = 3 - player


main()
