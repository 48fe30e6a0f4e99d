/* Nim in C (CS 135 Assignment 4 written in C instead of C++).
 * correct_c.c with ONE bug for the sanitizer pass: the answer is parsed digit by digit into an
 * int, which overflows on a huge input (4294967298); the overflowed value is never used (more
 * than 9 digits is refused), so the output agrees.
 * Reads with fgets (one answer per line); prints "Game Over - Player Wins." with a capital W.
 * At end of input it exits with status 1 after printing "Goodbye." on stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>

#define START 21

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
        printf("Please, answer Y or N.\n");
    }
}

static void print_matches(int n)
{
    int i;
    for (i = 1; i <= n; i++) {
        putchar('|');
        if (i % 5 == 0) putchar(' ');
    }
    putchar('\n');
}

static int ask_remove(void)
{
    char buf[256];
    int v;
    int digits;
    int negative;
    char *p;
    for (;;) {
        printf("Remove (1 - 3): ");
        get_line(buf, sizeof buf);
        p = buf;
        while (*p == ' ') p++;
        negative = (*p == '-');
        if (*p == '-' || *p == '+') p++;
        v = 0;
        digits = 0;
        while (isdigit((unsigned char)*p)) {
            v = v * 10 + (*p - '0'); /* BUG: overflows int on a number of 10 digits or more */
            digits++;
            p++;
        }
        while (*p == ' ') p++;
        if (digits == 0 || *p != '\0') {
            printf("Please, type 1, 2, or 3 as your response.\n");
        } else if (negative) {
            printf("Must remove at least one match.\n");
        } else if (digits > 9 || v > 3) {
            printf("Cannot remove more than three matches.\n");
        } else if (v < 1) {
            printf("Must remove at least one match.\n");
        } else {
            return v;
        }
    }
}

int main(void)
{
    int matches, player, take;
    printf("The game of Nim. The player to remove the last match loses.\n");
    do {
        player = ask_yn("Would you like to go first? (Y/N): ");
        matches = START;
        for (;;) {
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
                printf("Computer removes %d.\n", take);
            }
            matches -= take;
            player = !player;
        }
        if (player)
            printf("Game Over - Computer wins.\n");
        else
            printf("Game Over - Player Wins.\n");
        printf("\n");
    } while (ask_yn("Would you like to play again? (Y/N): "));
    return 0;
}
