/* Hangs: prints the title and the first question, reads the answer, then blocks in pause()
 * (waits for a signal that never comes): neither reading input nor computing. */
#include <stdio.h>
#include <unistd.h>

int main(void)
{
    char line[100];
    printf("The game of Nim. The player to remove the last match loses.\n\n");
    printf("Would you like to go first? (Y/N): ");
    fflush(stdout);
    if (!fgets(line, sizeof line, stdin)) {
        return 0;
    }
    pause();
    return 0;
}
