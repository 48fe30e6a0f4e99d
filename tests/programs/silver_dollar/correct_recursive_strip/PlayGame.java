import java.util.Scanner;

/**
 * PlayGame: the Silver Dollar Game for two players at one terminal.
 * Each answer is read as a line and taken apart with a second Scanner (a token stream);
 * the loops are `while (true)` with `break`. At the end of input: "Bye!", exit 0.
 */
public class PlayGame {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        int coins;
        while (true) {
            System.out.print("Enter the number of coins: ");
            if (!in.hasNextLine()) {
                System.out.println("Bye!");
                return;
            }
            Scanner words = new Scanner(in.nextLine());
            if (words.hasNextInt()) {
                coins = words.nextInt();
                if (coins > 0) {
                    break;
                }
            }
            System.out.println("Please enter a positive whole number.");
        }
        CoinStrip strip = new CoinStrip(coins);
        int player = 1;
        int winner = 2;
        while (true) {
            System.out.println(strip);
            if (strip.isGameOver()) {
                break;
            }
            while (true) {
                System.out.print("Player " + player + ": Enter your move: ");
                if (!in.hasNextLine()) {
                    System.out.println("Bye!");
                    return;
                }
                Scanner words = new Scanner(in.nextLine());
                int coin = words.hasNextInt() ? words.nextInt() : -1;
                int distance = words.hasNextInt() ? words.nextInt() : 0;
                if (!words.hasNext() && strip.isLegalMove(coin, distance)) {
                    strip.move(coin, distance);
                    break;
                }
                System.out.println("That is an illegal move, try again.");
            }
            winner = player;
            player = 3 - player;
        }
        System.out.println("Player " + winner + " wins!");
    }
}
