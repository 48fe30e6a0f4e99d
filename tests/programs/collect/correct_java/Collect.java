// Programming Assignment 3 written in Java: java Collect input.txt
// Differences from the reference where the handout is silent: a top row that has become
// empty is still printed (as an empty line) and still counted when numbering rows; non-numeric
// input gets its own message; no blank line before the first board. Scanner at end of input
// throws NoSuchElementException (stack trace on stderr, exit status 1).
import java.io.File;
import java.io.FileNotFoundException;
import java.util.ArrayList;
import java.util.List;
import java.util.Scanner;

public class Collect {
    private static final int EMPTY = -1;
    private int[][] cells;
    private int rows;
    private int cols;
    private int score = 0;

    public Collect(String fileName) throws FileNotFoundException {
        Scanner in = new Scanner(new File(fileName));
        List<String[]> lines = new ArrayList<>();
        while (in.hasNextLine()) {
            String line = in.nextLine().trim();
            if (!line.isEmpty()) {
                lines.add(line.split("\\s+"));
            }
        }
        in.close();
        rows = lines.size();
        cols = lines.get(0).length;
        cells = new int[rows][cols];
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                cells[r][c] = Integer.parseInt(lines.get(r)[c]);
            }
        }
    }

    private void print() {
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < rows; r++) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < cols; c++) {
                if (c > 0) line.append(' ');
                line.append(cells[r][c] == EMPTY ? " " : String.valueOf(cells[r][c]));
            }
            sb.append(line.toString().replaceAll("\\s+$", "")).append('\n');
        }
        System.out.print(sb);
        System.out.println();
        System.out.println("Your score is: " + score);
        System.out.println();
    }

    private boolean hasMove() {
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                int v = cells[r][c];
                if (v == EMPTY) continue;
                if (c + 1 < cols && cells[r][c + 1] == v) return true;
                if (r + 1 < rows && cells[r + 1][c] == v) return true;
            }
        }
        return false;
    }

    private int mark(int r, int c, int v, boolean[][] seen) {
        if (r < 0 || c < 0 || r >= rows || c >= cols) return 0;
        if (seen[r][c] || cells[r][c] != v) return 0;
        seen[r][c] = true;
        return 1 + mark(r + 1, c, v, seen) + mark(r - 1, c, v, seen)
                 + mark(r, c + 1, v, seen) + mark(r, c - 1, v, seen);
    }

    /** Returns false when nothing happened. */
    private boolean select(int r, int c) {
        int v = cells[r][c];
        if (v == EMPTY) return false;
        boolean[][] seen = new boolean[rows][cols];
        int n = mark(r, c, v, seen);
        if (n < 2) return false;
        score += v * n;
        for (int i = 0; i < rows; i++)
            for (int j = 0; j < cols; j++)
                if (seen[i][j]) cells[i][j] = EMPTY;
        // let the numbers fall
        for (int j = 0; j < cols; j++) {
            int write = rows - 1;
            for (int i = rows - 1; i >= 0; i--) {
                if (cells[i][j] != EMPTY) {
                    int x = cells[i][j];
                    cells[i][j] = EMPTY;
                    cells[write--][j] = x;
                }
            }
        }
        // remove empty columns by shifting everything left
        int j = 0;
        while (j < cols) {
            if (cells[rows - 1][j] == EMPTY) {
                for (int i = 0; i < rows; i++) {
                    for (int k = j; k < cols - 1; k++) cells[i][k] = cells[i][k + 1];
                }
                cols--;
            } else {
                j++;
            }
        }
        return true;
    }

    public void play(Scanner in) {
        print();
        while (hasMove()) {
            System.out.print("Please enter a row and a column number: ");
            String line = in.nextLine();
            String[] parts = line.trim().split(" ");
            int r, c;
            try {
                if (parts.length != 2) throw new NumberFormatException();
                r = Integer.parseInt(parts[0]);
                c = Integer.parseInt(parts[1]);
            } catch (NumberFormatException e) {
                System.out.println();
                System.out.println("Please enter two numbers!");
                System.out.println();
                continue;
            }
            if (r < 1 || r > rows || c < 1 || c > cols) {
                System.out.println();
                System.out.println("Please enter a correct size!");
                System.out.println();
                continue;
            }
            System.out.println();
            if (!select(r - 1, c - 1)) {
                System.out.println("No movement happened try again");
                System.out.println();
            }
            print();
        }
        System.out.println("Game over");
    }

    public static void main(String[] args) throws FileNotFoundException {
        Collect game = new Collect(args[0]);
        game.play(new Scanner(System.in));
    }
}
