package lab1;

import java.util.Scanner;

/**
 * Silver Dollar Game driver, in package lab1 as Eclipse keeps it (src/lab1/): correct_boxes
 * with a package line. Reads whole lines (nextLine + split); the coin-count
 * prompt is printed on its own line; a blank line follows every board.
 * Input that is not two integers counts as an illegal move.
 */
public class PlayGame {
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
        System.out.println(board.toString());
        System.out.println();
        System.out.println("Player " + winner + " wins!");
    }
}
