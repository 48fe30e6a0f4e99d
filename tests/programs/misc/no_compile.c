/* Does not compile: a missing semicolon and a missing closing brace (a half-finished Nim). */
#include <stdio.h>

int main(void)
{
    int matches = 21
    printf("The game of Nim. The player to remove the last match loses.\n");
    while (matches > 1) {
        matches--;
    return 0;
}
