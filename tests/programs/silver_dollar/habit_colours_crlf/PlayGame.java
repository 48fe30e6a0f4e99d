import java.util.Scanner;

/**
 * PlayGame: runs the Silver Dollar Game in the terminal.
 * A blank line is printed before every board. Every line ends with "\r\n" (written on
 * Windows, where that is the line end; the same on every computer this way).
 * Uses Scanner.nextInt (a token reader); ends with a NoSuchElementException when input runs out.
 */
public class PlayGame {
    private static final String NEWLINE = "\r\n";

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
            System.out.print(NEWLINE);
            System.out.print(strip + NEWLINE);
            boolean moved = false;
            while (!moved) {
                System.out.print("Player " + player + ": Enter your move: ");
                if (!in.hasNextInt()) {
                    in.next();
                    System.out.print("Illegal move! Try again." + NEWLINE);
                    continue;
                }
                int coin = in.nextInt();
                if (!in.hasNextInt()) {
                    in.next();
                    System.out.print("Illegal move! Try again." + NEWLINE);
                    continue;
                }
                int distance = in.nextInt();
                if (strip.isLegalMove(coin, distance)) {
                    strip.move(coin, distance);
                    moved = true;
                } else {
                    System.out.print("Illegal move! Try again." + NEWLINE);
                }
            }
            lastMover = player;
            player = (player == 1) ? 2 : 1;
        }
        System.out.print(NEWLINE);
        System.out.print(strip + NEWLINE);
        System.out.print("Player " + lastMover + " wins!" + NEWLINE);
    }
}
