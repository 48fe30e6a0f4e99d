import java.util.Random;

/*
 * CoinStrip.java
 * Jordan Lee, CSCI 2101 Lab 1
 *
 * The game board. positions[k] is the square (counted from 0 at the left end)
 * of coin k. Since coins never pass each other, positions is always increasing.
 */
public class CoinStrip {

    private static final int SPREAD = 6;

    private int[] positions;
    private int size; // number of squares on the strip

    /** A random starting board with the given number of coins. */
    public CoinStrip(int numberOfCoins) {
        Random r = new Random();
        positions = new int[numberOfCoins];
        int spot = -1;
        for (int k = 0; k < numberOfCoins; k++) {
            spot += 1 + r.nextInt(SPREAD);
            positions[k] = spot;
        }
        size = spot + 1;
    }

    /** A board with the coins on the given squares (for testing). */
    public CoinStrip(int[] startPositions) {
        positions = startPositions.clone();
        size = positions[positions.length - 1] + 1;
    }

    public int getNumCoins() {
        return positions.length;
    }

    public boolean isValidMove(int coin, int dist) {
        if (coin < 0 || coin >= positions.length || dist <= 0) {
            return false;
        }
        int dest = positions[coin] - dist;
        int leftLimit = (coin == 0) ? -1 : positions[coin - 1];
        return dest > leftLimit;
    }

    public void makeMove(int coin, int dist) {
        positions[coin] -= dist;
    }

    public boolean gameIsOver() {
        for (int k = 0; k < positions.length; k++) {
            if (positions[k] != k) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        int next = 0; // next coin to draw
        for (int sq = 0; sq < size; sq++) {
            if (sq > 0) {
                sb.append(' ');
            }
            if (next < positions.length && positions[next] == sq) {
                sb.append(next);
                next++;
            } else {
                sb.append('_');
            }
        }
        return sb.toString();
    }

    /** Quick tests for the methods above. */
    public static void main(String[] args) {
        CoinStrip test = new CoinStrip(new int[] {3, 9, 13});
        System.out.println(test);                          // _ _ _ 0 _ _ _ _ _ 1 _ _ _ 2
        System.out.println(test.isValidMove(0, 3));        // true
        System.out.println(test.isValidMove(0, 4));        // false (off the edge)
        System.out.println(test.isValidMove(1, 6));        // false (lands on coin 0)
        System.out.println(test.isValidMove(1, 7));        // false (jumps coin 0)
        System.out.println(test.isValidMove(5, 3));        // false (no coin 5)
        System.out.println(test.isValidMove(2, 0));        // false
        test.makeMove(2, 3);
        System.out.println(test);                          // _ _ _ 0 _ _ _ _ _ 1 2 _ _ _

        CoinStrip done = new CoinStrip(new int[] {0, 1, 2});
        System.out.println(done + "  over? " + done.gameIsOver());

        for (int i = 1; i <= 5; i++) {
            System.out.println(new CoinStrip(i));
        }
    }
}
