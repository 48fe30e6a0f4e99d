// BUG: isLegal does not check coin < spots.length, so a move of a coin that doesn't exist (the handout's "5 3") throws ArrayIndexOutOfBoundsException and the program dies (copy of correct_bonus_class)
// TARGET: a move of a coin that does not exist must be refused (error message, same player asked again)
import java.util.Random;
import java.util.Scanner;

/**
 * BonusPlayGame: Welter's Game, the variant where coins are allowed to pass
 * each other (but two coins still can't share a square).
 * By Maria Gonzalez.
 */
public class BonusPlayGame {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        System.out.println("Welter's Game!");
        System.out.println("Enter the number of coins:");
        int howMany = Integer.parseInt(in.nextLine().trim());
        WelterStrip strip = new WelterStrip(howMany);

        int turn = 1;
        int lastPlayer = 2;
        while (!strip.isFinished()) {
            System.out.println(strip);
            System.out.print("Player " + turn + ": Enter your move:");
            String[] parts = in.nextLine().trim().split("\\s+");
            int coin = Integer.parseInt(parts[0]);
            int dist = Integer.parseInt(parts[1]);
            if (strip.isLegal(coin, dist)) {
                strip.doMove(coin, dist);
                lastPlayer = turn;
                turn = 3 - turn;
            } else {
                System.out.println("Invalid move, please try again.");
            }
        }
        System.out.println(strip);
        System.out.println("Player " + lastPlayer + " wins Welter's Game!");
    }
}

/**
 * In Welter's Game the coins can pass, so it is easier to keep the board as
 * squares: squares[i] is the coin on square i, or -1.
 */
class WelterStrip {
    private static final int EMPTY = -1;
    private int[] squares;
    private int numCoins;

    public WelterStrip(int howMany) {
        numCoins = howMany;
        Random rng = new Random();
        int[] where = new int[howMany];
        int at = -1;
        for (int i = 0; i < howMany; i++) {
            at += 1 + rng.nextInt(6);
            where[i] = at;
        }
        squares = new int[at + 1];
        java.util.Arrays.fill(squares, EMPTY);
        for (int i = 0; i < howMany; i++) {
            squares[where[i]] = i;
        }
    }

    private int find(int coin) {
        for (int i = 0; i < squares.length; i++) {
            if (squares[i] == coin) {
                return i;
            }
        }
        return -1;
    }

    public boolean isLegal(int coin, int dist) {
        if (coin < 0 || coin >= numCoins || dist < 1) {
            return false;
        }
        int target = find(coin) - dist;
        return target >= 0 && squares[target] == EMPTY;
    }

    public void doMove(int coin, int dist) {
        int from = find(coin);
        squares[from] = EMPTY;
        squares[from - dist] = coin;
    }

    /** Finished when the first numCoins squares are all full, in any order. */
    public boolean isFinished() {
        for (int i = 0; i < numCoins; i++) {
            if (squares[i] == EMPTY) {
                return false;
            }
        }
        return true;
    }

    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < squares.length; i++) {
            if (i > 0) {
                sb.append(" ");
            }
            sb.append(squares[i] == EMPTY ? "_" : String.valueOf(squares[i]));
        }
        return sb.toString();
    }
}
