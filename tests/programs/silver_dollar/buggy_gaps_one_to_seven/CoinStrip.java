// BUG: the gap is drawn as random.nextInt(MAX_DISTANCE + 1) + 1, i.e. 1-7 instead of 1-6 (coin 0 at index 0-6) (copy of correct_shrinking)
// TARGET: the first strip's shape: every coin 1-6 squares right of the previous one (or of the edge); statistical - a 7-gap shows up in 1 - (6/7)^n of runs (about 54% with 5 coins, 79% with 10)
import java.util.Random;

/**
 * Lab 1 - CoinStrip
 * @author Sam Okafor
 *
 * Represents the Silver Dollar board. Instead of storing every square, this
 * class stores where each coin is: coins[i] is the square of coin i (square 0
 * is the left end of the strip). The strip is drawn only up to the last coin.
 */
public class CoinStrip {
    private static final int MAX_DISTANCE = 6;

    private int[] coins;

    /**
     * Creates a strip with numCoins coins. Each coin is placed 1 to 6 squares
     * to the right of the coin before it (the first one 1 to 6 squares from the edge).
     */
    public CoinStrip(int numCoins) {
        coins = new int[numCoins];
        Random random = new Random();
        int previous = -1;
        for (int i = 0; i < numCoins; i++) {
            coins[i] = previous + random.nextInt(MAX_DISTANCE + 1) + 1;
            previous = coins[i];
        }
    }

    /**
     * Returns true if coin can move the given distance to the left:
     * the coin must exist, move at least one square, stay on the strip and
     * stay to the right of the coin before it.
     */
    public boolean isLegal(int coin, int distance) {
        if (coin < 0 || coin >= coins.length) {
            return false;
        }
        if (distance <= 0) {
            return false;
        }
        int newSpot = coins[coin] - distance;
        if (newSpot < 0) {
            return false;
        }
        if (coin != 0 && newSpot <= coins[coin - 1]) {
            return false;
        }
        return true;
    }

    /** Moves the coin. Call isLegal first. */
    public void move(int coin, int distance) {
        coins[coin] = coins[coin] - distance;
    }

    /** The game is over when every coin is packed against the left edge. */
    public boolean isOver() {
        return coins[coins.length - 1] == coins.length - 1;
    }

    /** Draws the squares from the left edge up to the last coin. */
    public String toString() {
        int last = coins[coins.length - 1];
        String[] cells = new String[last + 1];
        for (int i = 0; i <= last; i++) {
            cells[i] = "_";
        }
        for (int c = 0; c < coins.length; c++) {
            cells[coins[c]] = "" + c;
        }
        String s = cells[0];
        for (int i = 1; i < cells.length; i++) {
            s = s + " " + cells[i];
        }
        return s;
    }
}
