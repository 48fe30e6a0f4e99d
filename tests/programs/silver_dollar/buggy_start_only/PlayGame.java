// BUG: draws a correct random starting strip and asks for moves, but never plays one: every
// move read is ignored and the same strip is drawn again, until the input ends.
// TARGET: credit once (issue 20) — the start earns its points in random-start only; the
// game cases earn nothing without a move played (at most 10 % of the case points,
// tests/fairness.rs).
import java.util.Scanner;

/**
 * PlayGame: the start of the Silver Dollar Game, with the moves still to do.
 */
public class PlayGame {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        System.out.print("Enter the number of coins: ");
        int n = Integer.parseInt(in.nextLine().trim());
        CoinStrip strip = new CoinStrip(n);
        System.out.println(strip);
        while (true) {
            System.out.print("Player 1: Enter your move: ");
            if (!in.hasNextLine()) {
                return;
            }
            in.nextLine();
            System.out.println(strip);
        }
    }
}
