// LAZY: not a buggy copy of a correct program. It asks for the coin count, prints ONE legal-looking
// starting strip and ONE "Player 1: Enter your move: " prompt, then exits 0 without reading a move.
// TARGET: everything after the first strip (moves, illegal moves, turns, final board, winner);
// only the coin-count prompt and the first strip's shape are right.
import java.util.Random;

/**
 * CoinStrip (unfinished).
 * Name: Chris Doyle
 */
public class CoinStrip {
    private int[] coins;
    private int length;

    public CoinStrip(int n) {
        Random r = new Random();
        coins = new int[n];
        int spot = -1;
        for (int i = 0; i < n; i++) {
            spot += r.nextInt(6) + 1;
            coins[i] = spot;
        }
        length = spot + 1;
    }

    // TODO isLegalMove, move, gameOver

    public String toString() {
        String s = "";
        int c = 0;
        for (int i = 0; i < length; i++) {
            if (c < coins.length && coins[c] == i) {
                s += c + " ";
                c++;
            } else {
                s += "_ ";
            }
        }
        return s.trim();
    }
}
