// LAZY: not a buggy copy of a correct program. It asks for the coin count, prints ONE legal-looking
// starting strip and ONE "Player 1: Enter your move: " prompt, then exits 0 without reading a move.
// TARGET: everything after the first strip (moves, illegal moves, turns, final board, winner);
// only the coin-count prompt and the first strip's shape are right.
import java.util.Scanner;

/**
 * PlayGame (unfinished).
 * Name: Chris Doyle
 */
public class PlayGame {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        System.out.print("Enter the number of coins: ");
        int n = in.nextInt();
        CoinStrip strip = new CoinStrip(n);
        System.out.println(strip);
        System.out.print("Player 1: Enter your move: ");
        // TODO: the game loop
    }
}
