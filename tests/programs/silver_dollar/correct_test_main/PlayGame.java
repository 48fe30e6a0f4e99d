import java.util.Scanner;

/*
 * PlayGame.java
 * Jordan Lee, CSCI 2101 Lab 1
 *
 * Plays the Silver Dollar Game between two people at one keyboard.
 */
public class PlayGame {

    public static void main(String[] args) {
        Scanner sc = new Scanner(System.in);

        System.out.print("Enter the number of coins: ");
        int n = sc.nextInt();
        CoinStrip strip = new CoinStrip(n);

        int current = 1;     // whose turn it is
        int winner = 2;      // player 1 loses if there is no move at all
        boolean showBoard = true;

        while (!strip.gameIsOver()) {
            if (showBoard) {
                System.out.println(strip);
                System.out.println();
            }
            System.out.print("Player " + current + ": Enter your move: ");
            int coin = sc.nextInt();
            int dist = sc.nextInt();
            if (strip.isValidMove(coin, dist)) {
                strip.makeMove(coin, dist);
                winner = current;
                current = (current == 1) ? 2 : 1;
                showBoard = true;
            } else {
                System.out.println("Illegal move! Try again.");
                showBoard = false;
            }
        }

        System.out.println(strip);
        System.out.println();
        System.out.println("Player " + winner + " wins!");
    }
}
