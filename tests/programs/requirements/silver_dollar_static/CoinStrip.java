public class CoinStrip {
    private static int[] positions;

    public CoinStrip(int coins) {
        positions = new int[coins];
        int square = -1;
        for (int i = 0; i < coins; i++) {
            square += 1 + (int) (Math.random() * 6);
            positions[i] = square;
        }
    }

    public boolean isLegal(int coin, int distance) {
        if (coin < 0 || coin >= positions.length || distance < 1) return false;
        int target = positions[coin] - distance;
        int floor = coin == 0 ? 0 : positions[coin - 1] + 1;
        return target >= floor;
    }

    public void move(int coin, int distance) {
        positions[coin] -= distance;
    }

    public boolean isOver() {
        for (int i = 0; i < positions.length; i++) {
            if (positions[i] != i) return false;
        }
        return true;
    }

    public void print() {
        StringBuilder line = new StringBuilder();
        int coin = 0;
        for (int square = 0; square <= positions[positions.length - 1]; square++) {
            if (coin < positions.length && positions[coin] == square) {
                line.append(coin++);
            } else {
                line.append('_');
            }
            line.append(' ');
        }
        System.out.println(line.toString().trim());
    }
}
