// BUG: the distance check is distance == 0 instead of distance <= 0, so a negative distance is accepted and moves the coin RIGHT (the last coin makes the strip longer; a middle coin may land on or pass its right neighbour, and toString can then crash) (copy of correct_shrinking)
// TARGET: "Coins move only to the left": "c -d" must be refused (error message, same board, same player asked again)
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
