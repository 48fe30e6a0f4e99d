import java.util.Scanner;

/**
 * PlayGame - runs a two player game of Silver Dollar.
 * Name: Priya Raman
 */
public class PlayGame {
    public static void main(String[] args) {
        Scanner keyboard = new Scanner(System.in);

        System.out.print("Enter the number of coins: ");
        int coins = keyboard.nextInt();

        CoinStrip strip = new CoinStrip(coins);
        int player = 1;

        while (!strip.noMovesLeft()) {
            System.out.println(strip);
            System.out.print("Player " + player + ", enter your move (coin spaces): ");
            int coin = keyboard.nextInt();
            int spaces = keyboard.nextInt();
            while (!strip.isValidMove(coin, spaces)) {
                System.out.println("That move is not allowed, try again.");
                System.out.print("Player " + player + ", enter your move (coin spaces): ");
                coin = keyboard.nextInt();
                spaces = keyboard.nextInt();
            }
            strip.moveCoin(coin, spaces);
            if (player == 1) {
                player = 2;
            } else {
                player = 1;
            }
        }

        // the player who just moved is the one before "player"
        int winner;
        if (player == 1) {
            winner = 2;
        } else {
            winner = 1;
        }
        System.out.println(strip);
        System.out.println("Player " + winner + " wins!");
    }
}
