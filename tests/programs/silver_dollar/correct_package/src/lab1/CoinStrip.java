package lab1;

import java.util.Random;

/**
 * The strip of squares for the Silver Dollar Game, stored square by square
 * (-1 for an empty square, otherwise the number of the coin on it).
 * toString draws the fancier boxed board from the lab handout.
 */
public class CoinStrip {
    private static final int EMPTY = -1;
    private int[] squares;
    private int coins;
    private Random random = new Random();

    public CoinStrip(int coins) {
        this.coins = coins;
        int[] spots = new int[coins];
        int prev = -1;
        for (int i = 0; i < coins; i++) {
            int gap = 1 + random.nextInt(6);   // 1..6 squares from the previous coin
            spots[i] = prev + gap;
            prev = spots[i];
        }
        squares = new int[prev + 1];
        for (int i = 0; i < squares.length; i++) {
            squares[i] = EMPTY;
        }
        for (int i = 0; i < coins; i++) {
            squares[spots[i]] = i;
        }
    }

    private int whereIs(int coin) {
        for (int i = 0; i < squares.length; i++) {
            if (squares[i] == coin) {
                return i;
            }
        }
        return -1;
    }

    public boolean legal(int coin, int spaces) {
        if (coin < 0 || coin >= coins || spaces <= 0) {
            return false;
        }
        int from = whereIs(coin);
        int to = from - spaces;
        if (to < 0) {
            return false;
        }
        // every square passed over, and the target, must be empty
        for (int i = to; i < from; i++) {
            if (squares[i] != EMPTY) {
                return false;
            }
        }
        return true;
    }

    public void makeMove(int coin, int spaces) {
        int from = whereIs(coin);
        squares[from] = EMPTY;
        squares[from - spaces] = coin;
    }

    public boolean gameOver() {
        for (int i = 0; i < coins; i++) {
            if (squares[i] != i) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        StringBuilder border = new StringBuilder("+");
        StringBuilder cells = new StringBuilder("|");
        for (int i = 0; i < squares.length; i++) {
            border.append("---+");
            String label = squares[i] == EMPTY ? "" : Integer.toString(squares[i]);
            // pad to three characters, centred
            if (label.length() == 0) {
                cells.append("   |");
            } else if (label.length() == 1) {
                cells.append(" ").append(label).append(" |");
            } else {
                cells.append(label).append(label.length() == 2 ? " |" : "|");
            }
        }
        return border + "\n" + cells + "\n" + border;
    }
}
