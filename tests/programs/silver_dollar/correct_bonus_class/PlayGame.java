import java.util.Scanner;

/**
 * PlayGame: plays the Silver Dollar Game in the terminal.
 * By Maria Gonzalez.
 *
 * (BonusPlayGame is my extra-credit Welter's Game version.)
 */
public class PlayGame {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);

        System.out.println("Enter the number of coins:");
        int howMany = Integer.parseInt(in.nextLine().trim());

        CoinStrip strip = new CoinStrip(howMany);
        // a board that is already finished is no fun: set it up again
        while (strip.isFinished()) {
            strip = new CoinStrip(howMany);
        }

        int turn = 1;
        int lastPlayer = 0;
        while (!strip.isFinished()) {
            System.out.println(strip);
            boolean done = false;
            while (!done) {
                System.out.print("Player " + turn + ": Enter your move:");
                if (!in.hasNextLine()) {
                    System.out.println();
                    System.out.println("No more input, quitting.");
                    return;
                }
                String[] parts = in.nextLine().trim().split("\\s+");
                int coin = Integer.parseInt(parts[0]);
                int dist = Integer.parseInt(parts[1]);
                if (strip.isLegal(coin, dist)) {
                    strip.doMove(coin, dist);
                    done = true;
                } else {
                    System.out.println("Invalid move, please try again.");
                }
            }
            lastPlayer = turn;
            if (turn == 1) {
                turn = 2;
            } else {
                turn = 1;
            }
        }

        System.out.println(strip);
        System.out.println("Game over.");
        System.out.println("Player " + lastPlayer + " wins!");
    }
}
