# The Game of M with the board in a string and one function per turn (recursion, no loop).

def show(board):
    print("Position: 1 2 3 4 5 6 7 8 9 10")
    print("          |" + "|".join(board) + "|")


def turn(board, used, player, scores):
    if " " not in board:
        print("Score: %d to %d" % (scores[0], scores[1]))
        return
    print("Score: %d to %d" % (scores[0], scores[1]))
    show(board)
    number = int(input("Player %d: Your number? " % player))
    position = int(input("Position to insert at? "))
    if str(number) in used or board[position - 1] != " ":
        print("That number is used or that position is taken.")
        return turn(board, used, player, scores)
    board = board[: position - 1] + str(number) + board[position:]
    used = used + str(number)
    return turn(board, used, 3 - player, scores)


turn(" " * 10, "", 1, (0, 0))
