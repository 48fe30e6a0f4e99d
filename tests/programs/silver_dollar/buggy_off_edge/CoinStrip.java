// BUG: no check that the target square is on the strip, so coin 0 can be moved past the left edge to a negative square; it then disappears from the drawing (and can keep moving further left) (copy of correct_list_blank_cells)
// TARGET: a move that falls off the left edge (coin 0 moved more squares than it has free to its left) must be refused (error message, same board, same player asked again)
import java.util.ArrayList;
import java.util.Random;

/**
 * CoinStrip
 * Author: Ben Whitaker
 *
 * Board for the Silver Dollar Game. I used an ArrayList of coin positions:
 * coinAt.get(i) is the square of coin i. Squares are numbered from 0 on the left.
 */
public class CoinStrip {
    private static final int FARTHEST = 6;

    private ArrayList<Integer> coinAt = new ArrayList<Integer>();
    private int squares;

    public CoinStrip(int n) {
        Random dice = new Random();
        int pos = -1;
        for (int i = 0; i < n; i++) {
            int roll = dice.nextInt(FARTHEST) + 1;
            pos = pos + roll;
            coinAt.add(pos);
        }
        squares = pos + 1;
    }

    public int coins() {
        return coinAt.size();
    }

    public boolean canMove(int coin, int amount) {
        if (coin < 0 || coin >= coinAt.size()) {
            return false;
        }
        if (amount < 1) {
            return false;
        }
        int goal = coinAt.get(coin) - amount;
        if (coin > 0 && goal <= coinAt.get(coin - 1)) {
            return false;
        }
        return true;
    }

    public void move(int coin, int amount) {
        coinAt.set(coin, coinAt.get(coin) - amount);
    }

    public boolean stuck() {
        for (int i = 0; i < coinAt.size(); i++) {
            if (coinAt.get(i) != i) {
                return false;
            }
        }
        return true;
    }

    /** Draws the strip as a row of boxes, like |   | 0 |   | 1 | */
    public String toString() {
        String row = "|";
        for (int sq = 0; sq < squares; sq++) {
            int coin = coinAt.indexOf(sq);
            if (coin == -1) {
                row += "   |";
            } else {
                row += String.format("%-3s|", " " + coin);
            }
        }
        return row;
    }
}
