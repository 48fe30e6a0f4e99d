// Does not compile: a String is assigned to an int and a method is called that does not exist.
import java.util.Scanner;

public class CompileError {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        System.out.print("Enter the number of coins: ");
        int coins = in.nextLine();
        CoinStrip strip = new CoinStrip(coins);
        System.out.println(strip);
    }
}
