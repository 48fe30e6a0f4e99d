/* Nim in C, BUGGY at a boundary: the answer is kept in an int, so a number past what 32 bits
 * hold wraps around ("4294967298" is read as 2, "-4294967295" as 1) and is taken as a legal
 * move instead of being refused. Otherwise as correct_c.c. */
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
    char *end;
    for (;;) {
        printf("Remove (1 - 3): ");
        get_line(buf, sizeof buf);
        v = (int)strtoll(buf, &end, 10); /* the bug: truncated to 32 bits */
        while (*end == ' ') end++;
        if (end == buf || *end != '\0') {
            printf("Please, type 1, 2, or 3 as your response.\n");
        } else if (v < 1) {
            printf("Must remove at least one match.\n");
        } else if (v > 3) {
            printf("Cannot remove more than three matches.\n");
        } else {
            return (int)v;
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
