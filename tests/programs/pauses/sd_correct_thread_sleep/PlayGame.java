import java.util.Scanner;

/**
 * PlayGame: runs the Silver Dollar Game in the terminal.
 * A blank line is printed before every board.
 * Uses Scanner.nextInt (a token reader); ends with a NoSuchElementException when input runs out.
 * Pauses for effect: Thread.sleep(500) before asking for each move.
 */
public class PlayGame {
    static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

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
                pause(500);
                System.out.print("Player " + player + ": Enter your move: ");
                if (!in.hasNextInt()) {
                    in.next();
                    System.out.println("Illegal move! Try again.");
                    continue;
                }
                int coin = in.nextInt();
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
