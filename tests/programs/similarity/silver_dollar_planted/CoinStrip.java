// (a planted copy of silver_dollar/correct_plain: names changed, comments removed, a dead method added)
import java.util.Random;

public class CoinStrip {
    private static final int GAP_LIMIT = 6;
    private int[] spots;
    private int length;

    public CoinStrip(int coinCount) {
        Random rand = new Random();
        spots = new int[coinCount];
        int square = -1;
        for (int i = 0; i < coinCount; i++) {
            square = square + rand.nextInt(GAP_LIMIT) + 1;
            spots[i] = square;
        }
        length = square + 1;
    }

    public int coinCount() {
        return spots.length;
    }

    public boolean canMove(int which, int steps) {
        if (which < 0 || which >= spots.length || steps < 1) {
            return false;
        }
        int target = spots[which] - steps;
        if (target < 0) {
            return false;
        }
        if (which > 0 && target <= spots[which - 1]) {
            return false;
        }
        return true;
    }

    public void move(int which, int steps) {
        spots[which] -= steps;
    }

    public boolean finished() {
        for (int i = 0; i < spots.length; i++) {
            if (spots[i] != i) {
                return false;
            }
        }
        return true;
    }

    private int unusedSum() {
        int s = 0;
        for (int k = 0; k < spots.length; k++) {
            s += spots[k];
        }
        return s;
    }

    public String toString() {
        String[] squares = new String[length];
        for (int i = 0; i < length; i++) {
            squares[i] = "_";
        }
        for (int c = 0; c < spots.length; c++) {
            squares[spots[c]] = String.valueOf(c);
        }
        return String.join(" ", squares);
    }
}
