// Codebreaker (tests/assignments/codebreaker/handout.md) in Java, written from the handout:
// a BufferedReader on System.in, the prompt "Enter guess #N: ", and the code read with
// java.nio.file.Files.
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;

public class Codebreaker {
    static boolean isCode(String text) {
        if (text.length() != 4) {
            return false;
        }
        for (char c : text.toCharArray()) {
            if (c < '1' || c > '6') {
                return false;
            }
        }
        return true;
    }

    static String readCode(String[] args) {
        if (args.length < 1) {
            return null;
        }
        try {
            List<String> lines = Files.readAllLines(Paths.get(args[0]));
            if (lines.isEmpty()) {
                return null;
            }
            String first = lines.get(0).trim();
            return isCode(first) ? first : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    public static void main(String[] args) throws IOException {
        String code = readCode(args);
        if (code == null) {
            System.out.println("Cannot read the code.");
            return;
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        int used = 0;
        while (used < 10) {
            System.out.print("Enter guess #" + (used + 1) + ": ");
            System.out.flush();
            String line = in.readLine();
            if (line == null) {
                System.out.println();
                System.out.println("You quit! The code was " + code + ".");
                return;
            }
            String guess = line.trim();
            if (!isCode(guess)) {
                System.out.println("Invalid guess.");
                continue;
            }
            used++;
            int black = 0;
            int[] codeCounts = new int[7];
            int[] guessCounts = new int[7];
            for (int i = 0; i < 4; i++) {
                if (code.charAt(i) == guess.charAt(i)) {
                    black++;
                }
                codeCounts[code.charAt(i) - '0']++;
                guessCounts[guess.charAt(i) - '0']++;
            }
            int common = 0;
            for (int d = 1; d <= 6; d++) {
                common += Math.min(codeCounts[d], guessCounts[d]);
            }
            System.out.println("Black: " + black + " White: " + (common - black));
            if (black == 4) {
                System.out.println("You win! Guesses: " + used);
                return;
            }
        }
        System.out.println("You lose! The code was " + code + ".");
    }
}
