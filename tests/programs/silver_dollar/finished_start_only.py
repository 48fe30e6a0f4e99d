# Silver Dollar whose strip always starts finished: the coins already fill the left-most
# squares, so no move is possible and the game ends at once (a start a random draw gives a
# correct program once in 6^n). Used to show that a driven case runs such a program again
# for a new start, and stops after one more run when the start comes out the same.
def main():
    coins = int(input("Enter the number of coins: "))
    print(" ".join(str(coin) for coin in range(coins)))
    print("Player 2 wins!")


main()
