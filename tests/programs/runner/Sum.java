import java.util.Scanner;

public class Sum {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        System.out.print("Number? ");
        int a = in.nextInt();
        System.out.print("Another? ");
        int b = in.nextInt();
        System.out.println("Sum: " + (a + b));
    }
}
