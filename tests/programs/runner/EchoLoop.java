import java.util.Scanner;

// Benchmark program: ten prompts, each answered by one line.
public class EchoLoop {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        for (int i = 0; i < 10; i++) {
            System.out.print("Move " + i + "? ");
            String line = in.nextLine();
            System.out.println("You said " + line);
        }
    }
}
