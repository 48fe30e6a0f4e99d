// BUG: the target square is not checked (the loop starts one square right of it), so a coin may land on coin c-1, which then disappears
// TARGET: "No square may hold more than one coin": a move onto coin c-1 must be refused (land-on-neighbour: strips)
import java.util.Scanner;

/**
 * Silver Dollar Game driver. Reads whole lines (nextLine + split); the coin-count
 * prompt is printed on its own line; a blank line follows every board.
 * Input that is not two integers counts as an illegal move.
 * The screen is cleared before every board (ANSI "\033[2J\033[H", so only the current
 * strip is on the screen), and at the end the console window is kept open until Enter is
 * pressed (the last nextLine; when there is no more input it ends with a
 * NoSuchElementException).
 */
public class PlayGame {
    private static final String CLEAR_SCREEN = "\033[2J\033[H";

    public static void main(String[] args) {
        Scanner scan = new Scanner(System.in);
        int n = 0;
        while (n <= 0) {
            System.out.println("Enter the number of coins:");
            try {
                n = Integer.parseInt(scan.nextLine().trim());
            } catch (NumberFormatException e) {
                n = 0;
            }
        }
        CoinStrip board = new CoinStrip(n);
        int current = 1;
        int winner = 2;
        while (!board.gameOver()) {
            System.out.print(CLEAR_SCREEN);
            System.out.println(board.toString());
            System.out.println();
            while (true) {
                System.out.print("Player " + current + ": Enter your move: ");
                String[] parts = scan.nextLine().trim().split(" ");
                int coin, spaces;
                try {
                    if (parts.length != 2) {
                        throw new NumberFormatException();
                    }
                    coin = Integer.parseInt(parts[0]);
                    spaces = Integer.parseInt(parts[1]);
                } catch (NumberFormatException e) {
                    System.out.println("Illegal move! Try again.");
                    continue;
                }
                if (board.legal(coin, spaces)) {
                    board.makeMove(coin, spaces);
                    break;
                }
                System.out.println("Illegal move! Try again.");
            }
            winner = current;
            current = 3 - current;
        }
        System.out.print(CLEAR_SCREEN);
        System.out.println(board.toString());
        System.out.println();
        System.out.println("Player " + winner + " wins!");
        System.out.println();
        System.out.print("Press Enter to exit...");
        scan.nextLine();
    }
}
