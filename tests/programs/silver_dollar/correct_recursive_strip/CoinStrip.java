import java.util.Random;

/**
 * CoinStrip: the strip of squares and the coins on it, coin i at positions[i].
 * The drawing is built recursively, square by square; a move is checked against the coin to
 * its left only.
 */
public class CoinStrip {
    private static final int MAX_GAP = 6;
    private final int[] positions;

    /** A random start: each coin 1 to 6 squares right of the previous one (or the edge). */
    public CoinStrip(int coins) {
        Random random = new Random();
        positions = new int[coins];
        int square = -1;
        for (int i = 0; i < coins; i++) {
            square += random.nextInt(MAX_GAP) + 1;
            positions[i] = square;
        }
    }

    public boolean isLegalMove(int coin, int distance) {
        if (coin < 0 || coin >= positions.length || distance < 1) {
            return false;
        }
        int target = positions[coin] - distance;
        int leftmost = coin == 0 ? 0 : positions[coin - 1] + 1;
        return target >= leftmost;
    }

    public void move(int coin, int distance) {
        positions[coin] -= distance;
    }

    /** The game is over when every coin is packed against the left edge. */
    public boolean isGameOver() {
        return packed(positions.length - 1);
    }

    private boolean packed(int coin) {
        if (coin < 0) {
            return true;
        }
        return positions[coin] == coin && packed(coin - 1);
    }

    private String draw(int square, int coin) {
        if (coin >= positions.length) {
            return "";
        }
        String here;
        int next = coin;
        if (positions[coin] == square) {
            here = Integer.toString(coin);
            next = coin + 1;
        } else {
            here = "_";
        }
        String rest = draw(square + 1, next);
        return rest.isEmpty() ? here : here + " " + rest;
    }

    public String toString() {
        return draw(0, 0);
    }
}
