import java.util.Random;

/**
 * CoinStrip - the strip of squares for the Silver Dollar Game.
 * Name: Priya Raman
 *
 * The board is kept square by square: squares[i] holds the number of the coin
 * on square i, or EMPTY. The strip is as long as needed to hold the last coin.
 */
public class CoinStrip {
    private static final int EMPTY = -1;
    private static final int MAX_SPACING = 6;

    private int[] squares;
    private int numCoins;

    /**
     * Builds a random strip with the given number of coins. If the random strip
     * happens to have no legal move at all, a new one is drawn.
     */
    public CoinStrip(int numCoins) {
        this.numCoins = numCoins;
        Random gen = new Random();
        do {
            placeCoins(gen);
        } while (noMovesLeft());
    }

    private void placeCoins(Random gen) {
        int[] spots = new int[numCoins];
        int last = -1;
        for (int coin = 0; coin < numCoins; coin++) {
            last = last + 1 + gen.nextInt(MAX_SPACING);
            spots[coin] = last;
        }
        squares = new int[last + 1];
        for (int i = 0; i < squares.length; i++) {
            squares[i] = EMPTY;
        }
        for (int coin = 0; coin < numCoins; coin++) {
            squares[spots[coin]] = coin;
        }
    }

    /** Returns the square that the given coin is on. */
    private int squareOf(int coin) {
        for (int i = 0; i < squares.length; i++) {
            if (squares[i] == coin) {
                return i;
            }
        }
        return -1;
    }

    /** Checks whether coin can be moved "spaces" squares to the left. */
    public boolean isValidMove(int coin, int spaces) {
        if (coin < 0 || coin >= numCoins) {
            return false;
        }
        if (spaces < 1) {
            return false;
        }
        int from = squareOf(coin);
        int to = from - spaces;
        if (to < 0) {
            return false;
        }
        // the coin may not land on or jump over another coin
        for (int i = to; i < from; i++) {
            if (squares[i] != EMPTY) {
                return false;
            }
        }
        return true;
    }

    /** Moves the coin; the move must already have been checked. */
    public void moveCoin(int coin, int spaces) {
        int from = squareOf(coin);
        squares[from] = EMPTY;
        squares[from - spaces] = coin;
    }

    /** No moves are left once coins 0..n-1 sit on squares 0..n-1. */
    public boolean noMovesLeft() {
        for (int i = 0; i < numCoins; i++) {
            if (squares[i] != i) {
                return false;
            }
        }
        return true;
    }

    /** Each square is three characters wide: " _ " or " 3 ". */
    public String toString() {
        String result = "";
        for (int i = 0; i < squares.length; i++) {
            if (squares[i] == EMPTY) {
                result += " _ ";
            } else {
                result += String.format("%2d ", squares[i]);
            }
        }
        return result;
    }
}
