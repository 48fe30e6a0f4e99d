// BUG: the gap is drawn as random.nextInt(MAX_DISTANCE + 1) + 1, i.e. 1-7 instead of 1-6 (coin 0 at index 0-6) (copy of correct_shrinking)
// TARGET: the first strip's shape: every coin 1-6 squares right of the previous one (or of the edge); statistical - a 7-gap shows up in 1 - (6/7)^n of runs (about 54% with 5 coins, 79% with 10)
import java.util.Scanner;

/**
 * Lab 1 - PlayGame
 * @author Sam Okafor
 *
 * Runs the Silver Dollar Game. Moves are typed as one line "coin distance".
 */
public class PlayGame {
    public static void main(String[] args) {
        Scanner input = new Scanner(System.in);
        System.out.println("Enter the number of coins:");
        int n = Integer.parseInt(input.nextLine().trim());
        CoinStrip board = new CoinStrip(n);

        int turn = 1;
        int lastToMove = 2; // if player 1 can't even move, player 2 "moved last"
        while (!board.isOver()) {
            System.out.println(board);
            System.out.println("Player " + turn + ": Enter your move:");
            String[] move = input.nextLine().split(" ");
            int coin = Integer.parseInt(move[0]);
            int distance = Integer.parseInt(move[1]);
            while (!board.isLegal(coin, distance)) {
                System.out.println("Illegal move! Try again.");
                System.out.println("Player " + turn + ": Enter your move:");
                move = input.nextLine().split(" ");
                coin = Integer.parseInt(move[0]);
                distance = Integer.parseInt(move[1]);
            }
            board.move(coin, distance);
            lastToMove = turn;
            turn = 3 - turn;
        }
        System.out.println(board);
        System.out.println("Player " + lastToMove + " wins!");
    }
}
