// BUG: the winner printed is turn (the player who would move next) instead of lastPlayer (copy of correct_bonus_class)
// TARGET: "The final player to move is the winner": the victory message names the player who made the last move
import java.util.Random;

/**
 * CoinStrip: the Silver Dollar Game board.
 * By Maria Gonzalez.
 *
 * spots[i] is the index of the square holding coin i.
 */
public class CoinStrip {
    private static final int MIN_GAP = 1;
    private static final int MAX_GAP = 6;

    private int[] spots;
    private int length;

    public CoinStrip(int howMany) {
        Random rng = new Random();
        spots = new int[howMany];
        int at = -1;
        for (int i = 0; i < howMany; i++) {
            at = at + MIN_GAP + rng.nextInt(MAX_GAP - MIN_GAP + 1);
            spots[i] = at;
        }
        length = at + 1;
    }

    /**
     * A move is legal if the coin exists and moves at least one square left,
     * without leaving the strip and without reaching the coin on its left.
     */
    public boolean isLegal(int coin, int dist) {
        if (coin < 0 || coin >= spots.length || dist < 1) {
            return false;
        }
        int target = spots[coin] - dist;
        if (target < 0) {
            return false;
        }
        if (coin > 0 && target <= spots[coin - 1]) {
            return false;
        }
        return true;
    }

    public void doMove(int coin, int dist) {
        spots[coin] = spots[coin] - dist;
    }

    /** True when coins 0..n-1 fill the first n squares. */
    public boolean isFinished() {
        return spots[spots.length - 1] == spots.length - 1;
    }

    public String toString() {
        String board = "";
        int coin = 0;
        for (int sq = 0; sq < length; sq++) {
            if (coin < spots.length && spots[coin] == sq) {
                board += coin;
                coin++;
            } else {
                board += "_";
            }
            if (sq < length - 1) {
                board += " ";
            }
        }
        return board;
    }
}
