// CS 135 Assignment 4 - Nim
// A class per concept (Pile, Keyboard, Computer); C stdio: scanf reads the answers and the
// rest of a line is cleared with the usual `while ((c = getchar()) != '\n' && c != EOF);`.
// Every question is asked in a do-while loop through a helper that calls another helper
// (Keyboard::number -> Keyboard::token -> scanf). "Thanks for playing!" after the last game.
// Exits 0 quietly at end of input.
#include <cstdio>
#include <cstdlib>

// The matches on the table.
class Pile {
public:
    void reset() { matches = 21; }
    int left() const { return matches; }
    void take(int n) { matches -= n; }
    // the matches in groups of five, a space after each full group
    void show() const {
        for (int i = 1; i <= matches; i++) {
            putchar('|');
            if (i % 5 == 0) putchar(' ');
        }
        putchar('\n');
    }
private:
    int matches = 21;
};

// What the player types.
class Keyboard {
public:
    // Throws away what is left of the current line.
    static void clearLine() {
        int c;
        while ((c = getchar()) != '\n' && c != EOF);
    }
    // One whole number, or false when the line holds something else.
    // Read wide and clamped, so a number past what an int holds keeps its side of the range
    // (with "%d", -4294967295 would wrap around to 1, a legal move).
    static bool token(int* value) {
        long long wide = 0;
        int got = scanf("%lld", &wide);
        *value = wide < -1000 ? -1000 : wide > 1000 ? 1000 : (int)wide;
        if (got == EOF) exit(0);
        int next = getchar();
        if (got != 1 || (next != '\n' && next != EOF)) {
            if (next != '\n' && next != EOF) clearLine();
            return false;
        }
        return true;
    }
    static bool number(int* value) { return token(value); }
    static char letter() {
        char answer;
        if (scanf(" %c", &answer) != 1) exit(0);
        clearLine();
        return answer;
    }
};

// The computer's strategy: the remainder of the matches divided by four.
class Computer {
public:
    static int choose(int matches) {
        switch (matches % 4) {
            case 0: return 3;
            case 3: return 2;
            default: return 1;
        }
    }
};

static char askYesNo(const char* question) {
    char answer;
    bool valid;
    do {
        printf("%s", question);
        fflush(stdout);
        answer = Keyboard::letter();
        valid = answer == 'Y' || answer == 'y' || answer == 'N' || answer == 'n';
        if (!valid) printf("Please, answer Y or N.\n");
    } while (!valid);
    return answer;
}

static int askRemove() {
    int amount = 0;
    bool valid = false;
    do {
        printf("Remove (1 - 3): ");
        fflush(stdout);
        if (!Keyboard::number(&amount)) {
            printf("Please, type 1, 2, or 3 as your response.\n");
        } else if (amount < 1) {
            printf("Must remove at least one match.\n");
        } else if (amount > 3) {
            printf("Cannot remove more than three matches.\n");
        } else {
            valid = true;
        }
    } while (!valid);
    return amount;
}

int main() {
    printf("The game of Nim. The player to remove the last match loses.\n");
    Pile pile;
    char again;
    do {
        printf("\n");
        char first = askYesNo("Would you like to go first? (Y/N): ");
        bool playerTurn = first == 'Y' || first == 'y';
        pile.reset();
        for (;;) {
            printf("\n%s Turn - Matches: ", playerTurn ? "Player" : "Computer");
            pile.show();
            if (pile.left() == 1) {
                printf("Game Over - %s wins.\n", playerTurn ? "Computer" : "Player");
                break;
            }
            if (playerTurn) {
                pile.take(askRemove());
            } else {
                int take = Computer::choose(pile.left());
                printf("Computer removes %d.\n", take);
                pile.take(take);
            }
            playerTurn = !playerTurn;
        }
        printf("\n");
        again = askYesNo("Would you like to play again? (Y/N): ");
    } while (again == 'Y' || again == 'y');
    printf("Thanks for playing!\n");
    return 0;
}
