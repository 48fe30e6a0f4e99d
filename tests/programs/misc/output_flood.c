/* Prints the same line forever without reading input (hits the grader's output limit). */
#include <stdio.h>

int main(void)
{
    for (;;) {
        fputs("Player Turn - Matches: ||||| ||||| ||||| ||||| |\n", stdout);
    }
    return 0;
}
