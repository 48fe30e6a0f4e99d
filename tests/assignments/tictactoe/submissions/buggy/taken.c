/* Tic-tac-toe with one bug: a taken cell is taken over instead of refused (handout rule 4). */
/* grade: loses cell-taken */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char board[9];

static void show(void) {
    for (int r = 0; r < 3; r++) {
        printf("%c|%c|%c\n", board[3 * r], board[3 * r + 1], board[3 * r + 2]);
    }
    printf("\n");
}

static int wins(char mark) {
    static const int lines[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                                    {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};
    for (int i = 0; i < 8; i++) {
        if (board[lines[i][0]] == mark && board[lines[i][1]] == mark &&
            board[lines[i][2]] == mark) {
            return 1;
        }
    }
    return 0;
}

static int full(void) {
    for (int i = 0; i < 9; i++) {
        if (board[i] == '.') {
            return 0;
        }
    }
    return 1;
}

int main(void) {
    char line[256];
    char mark = 'X';
    memset(board, '.', sizeof board);
    show();
    for (;;) {
        printf("%c: ", mark);
        if (fgets(line, sizeof line, stdin) == NULL) {
            return 0;
        }
        line[strcspn(line, "\r\n")] = '\0';
        char *end;
        long cell = strtol(line, &end, 10);
        if (end == line || *end != '\0' || cell < 1 || cell > 9) {
            printf("Invalid cell.\n");
            continue;
        }
        board[cell - 1] = mark;
        show();
        if (wins(mark)) {
            printf("Player %c wins!\n", mark);
            return 0;
        }
        if (full()) {
            printf("It's a draw!\n");
            return 0;
        }
        mark = mark == 'X' ? 'O' : 'X';
    }
}
