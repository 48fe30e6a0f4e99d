/* Loops forever without reading input or printing (the loop variable is never changed):
 * the grader must stop it on its time / CPU limit. */
#include <stdio.h>

int main(void)
{
    volatile int matches = 21;
    volatile unsigned long spins = 0;
    printf("The game of Nim. The player to remove the last match loses.\n");
    fflush(stdout);
    while (matches > 1) {
        spins++; /* forgot: matches -= take; */
    }
    printf("Game Over\n");
    return 0;
}
