// (a planted copy of silver_dollar/correct_plain: names changed, comments removed, a dead method added)
import java.util.Scanner;

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
        int lastMover = 2;
        while (!strip.finished()) {
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
                int which = in.nextInt();
                if (!in.hasNextInt()) {
                    in.next();
                    System.out.println("Illegal move! Try again.");
                    continue;
                }
                int steps = in.nextInt();
                if (strip.canMove(which, steps)) {
                    strip.move(which, steps);
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
