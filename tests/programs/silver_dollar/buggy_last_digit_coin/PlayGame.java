// BUG: the coin number is read as the last digit of its token ("12 1" moves coin 2), which is right while every coin number has one digit: only with 11 coins or more (coins 10, 11, ...), or a missing coin of two digits ("10 3" with 10 coins), does it move the wrong coin (copy of correct_plain)
// TARGET: "the first integer is the number of the coin to move": a move of coin 10 or higher must move that coin, and a coin that doesn't exist must be refused
import java.util.Scanner;

/**
 * PlayGame: runs the Silver Dollar Game in the terminal.
 * A blank line is printed before every board.
 * Uses Scanner.nextInt (a token reader); ends with a NoSuchElementException when input runs out.
 */
public class PlayGame {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        int coins = 0;
        while (coins < 1) {
            System.out.print("Enter the number of coins: ");
            if (in.hasNextInt()) {
                coins = in.nextInt();
            } else {
                in.next();
            }
        }
        CoinStrip strip = new CoinStrip(coins);
        int player = 1;
        int lastMover = 2; // if the board starts finished, player 1 cannot move
        while (!strip.isGameOver()) {
            System.out.println();
            System.out.println(strip);
            boolean moved = false;
            while (!moved) {
                System.out.print("Player " + player + ": Enter your move: ");
                if (!in.hasNextInt()) {
                    in.next();
                    System.out.println("Illegal move! Try again.");
                    continue;
                }
                String token = in.next();
                int coin = token.charAt(token.length() - 1) - '0';
                if (!in.hasNextInt()) {
                    in.next();
                    System.out.println("Illegal move! Try again.");
                    continue;
                }
                int distance = in.nextInt();
                if (strip.isLegalMove(coin, distance)) {
                    strip.move(coin, distance);
                    moved = true;
                } else {
                    System.out.println("Illegal move! Try again.");
                }
            }
            lastMover = player;
            player = (player == 1) ? 2 : 1;
        }
        System.out.println();
        System.out.println(strip);
        System.out.println("Player " + lastMover + " wins!");
    }
}
