import java.util.Random;

/**
 * CoinStrip: the board of the Silver Dollar Game.
 * The state is the square index of every coin (coin 0 is the left-most coin).
 */
public class CoinStrip {
    private static final int MAX_GAP = 6;
    private int[] location;
    private int length; // squares on the strip, fixed at the start

    /** Places numCoins coins, each 1 to 6 squares from the coin to its left (or the edge). */
    public CoinStrip(int numCoins) {
        Random rand = new Random();
        location = new int[numCoins];
        int square = -1; // the left edge
        for (int i = 0; i < numCoins; i++) {
            square = square + rand.nextInt(MAX_GAP) + 1;
            location[i] = square;
        }
        length = square + 1;
    }

    public int numCoins() {
        return location.length;
    }

    /** Is moving coin "coin" left by "distance" squares legal? */
    public boolean isLegalMove(int coin, int distance) {
        if (coin < 0 || coin >= location.length || distance < 1) {
            return false;
        }
        int target = location[coin] - distance;
        if (target < 0) {
            return false;
        }
        if (coin > 0 && target <= location[coin - 1]) {
            return false;
        }
        return true;
    }

    public void move(int coin, int distance) {
        location[coin] -= distance;
    }

    /** The game is over when the coins fill the left-most squares. */
    public boolean isGameOver() {
        for (int i = 0; i < location.length; i++) {
            if (location[i] != i) {
                return false;
            }
        }
        return true;
    }

    public String toString() {
        String[] squares = new String[length];
        for (int i = 0; i < length; i++) {
            squares[i] = "_";
        }
        for (int c = 0; c < location.length; c++) {
            squares[location[c]] = String.valueOf(c);
        }
        return String.join(" ", squares);
    }
}
