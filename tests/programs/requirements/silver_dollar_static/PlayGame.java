import java.util.Scanner;

public class PlayGame {
    static Scanner in = new Scanner(System.in);

    public static void main(String[] args) {
        System.out.println("Enter the number of coins:");
        CoinStrip strip = new CoinStrip(in.nextInt());
        play(strip);
    }

    static void play(CoinStrip strip) {
        int player = 1;
        while (!strip.isOver()) {
            strip.print();
            System.out.print("Player " + player + ": Enter your move: ");
            int coin = in.nextInt();
            int distance = in.nextInt();
            if (!strip.isLegal(coin, distance)) {
                System.out.println("Illegal move! Try again.");
                continue;
            }
            strip.move(coin, distance);
            player = 3 - player;
        }
        strip.print();
        System.out.println("Player " + (3 - player) + " wins!");
    }
}
