/* Nim in C (CS 135 Assignment 4 written in C instead of C++), written on Windows:
 * every line ends with "\r\n" (as the course's Windows machines show it), the screen is
 * cleared with "\033[2J\033[H" at the start of each round and before the computer's turn,
 * and the window is kept open at the end with "Press Enter to exit..." and getchar().
 * Reads with fgets (one answer per line); prints "Game Over - Player Wins." with a capital W.
 * At end of input in the middle of a game it exits with status 1 after printing "Goodbye."
 * on stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>

#define START 21
#define NL "\r\n"

static void clear_screen(void)
{
    printf("\033[2J\033[H");
}

static void get_line(char *buf, size_t size)
{
    fflush(stdout);
    if (fgets(buf, (int)size, stdin) == NULL) {
        fprintf(stderr, "Goodbye.\n");
        exit(1);
    }
    /* strip trailing whitespace */
    size_t len = strlen(buf);
    while (len > 0 && isspace((unsigned char)buf[len - 1]))
        buf[--len] = '\0';
}

static int ask_yn(const char *prompt)
{
    char buf[256];
    char *p;
    for (;;) {
        printf("%s", prompt);
        get_line(buf, sizeof buf);
        p = buf;
        while (*p == ' ' || *p == '\t') p++;
        if (strlen(p) == 1 && strchr("YyNn", p[0]) != NULL)
            return p[0] == 'Y' || p[0] == 'y';
        printf("Please, answer Y or N." NL);
    }
}

static void print_matches(int n)
{
    int i;
    for (i = 1; i <= n; i++) {
        putchar('|');
        if (i % 5 == 0) putchar(' ');
    }
    printf(NL);
}

static int ask_remove(void)
{
    char buf[256];
    long v;
    char *end;
    for (;;) {
        printf("Remove (1 - 3): ");
        get_line(buf, sizeof buf);
        v = strtol(buf, &end, 10);
        while (*end == ' ') end++;
        if (end == buf || *end != '\0') {
            printf("Please, type 1, 2, or 3 as your response." NL);
        } else if (v < 1) {
            printf("Must remove at least one match." NL);
        } else if (v > 3) {
            printf("Cannot remove more than three matches." NL);
        } else {
            return (int)v;
        }
    }
}

int main(void)
{
    int matches, player, take;
    clear_screen();
    printf("The game of Nim. The player to remove the last match loses." NL);
    do {
        player = ask_yn("Would you like to go first? (Y/N): ");
        matches = START;
        clear_screen();
        for (;;) {
            if (!player && matches < START)
                clear_screen();
            printf("%s Turn - Matches: ", player ? "Player" : "Computer");
            print_matches(matches);
            if (matches == 1)
                break;
            if (player) {
                take = ask_remove();
            } else {
                if (matches % 4 == 0) take = 3;
                else if (matches % 4 == 3) take = 2;
                else take = 1;
                printf("Computer removes %d." NL, take);
            }
            matches -= take;
            player = !player;
        }
        if (player)
            printf("Game Over - Computer wins." NL);
        else
            printf("Game Over - Player Wins." NL);
        printf(NL);
    } while (ask_yn("Would you like to play again? (Y/N): "));
    printf("Press Enter to exit...");
    fflush(stdout);
    getchar();
    return 0;
}
