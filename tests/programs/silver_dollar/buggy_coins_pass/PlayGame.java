// BUG: the move check only asks whether the target square is free (coinAt.contains(goal)), so a coin may jump over coin c-1 onto an empty square further left (copy of correct_list_blank_cells)
// TARGET: "No coin may pass (skip over) another": a move past coin c-1 must be refused (error message, same board, same player asked again)
import java.util.Scanner;

/**
 * PlayGame
 * Author: Ben Whitaker
 *
 * Main loop for the Silver Dollar Game.
 */
public class PlayGame {
    public static void main(String[] args) {
        Scanner scanner = new Scanner(System.in);
        System.out.print("Enter the number of coins: ");
        int n = Integer.parseInt(scanner.next());
        CoinStrip game = new CoinStrip(n);

        int player = 1;
        int previous = 2;
        while (!game.stuck()) {
            System.out.println(game);
            boolean valid = false;
            while (!valid) {
                System.out.print("Player " + player + ": Enter your move: ");
                if (!scanner.hasNext()) {
                    System.exit(0); // nothing left to read
                }
                int coin = Integer.parseInt(scanner.next());
                int amount = Integer.parseInt(scanner.next());
                valid = game.canMove(coin, amount);
                if (valid) {
                    game.move(coin, amount);
                } else {
                    System.out.println("Illegal move! Try again.");
                }
            }
            previous = player;
            player = (player % 2) + 1;
        }
        System.out.println(game);
        System.out.println("Player " + previous + " wins the game!");
    }
}
