/* Eight processes of 60 MiB each under a 64 MiB limit (issue 31, attack 8): without a memory
 * cgroup each stays under the per-process RLIMIT_DATA, together they hold 480 MiB. Each child
 * touches its 60 MiB and holds it for a second; the parent prints "held N MiB" when all of
 * them did. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CHILDREN 8
#define MIB 60

int main(void) {
    for (int i = 0; i < CHILDREN; i++) {
        pid_t pid = fork();
        if (pid == 0) {
            char *p = malloc((size_t)MIB << 20);
            if (!p) _exit(1);
            /* Every page written through a volatile pointer: the compiler cannot drop it. */
            volatile char *v = p;
            for (size_t k = 0; k < ((size_t)MIB << 20); k += 4096) v[k] = (char)(i + 1);
            /* Short sleeps run for real (longer ones are cut short by the grader). */
            for (int t = 0; t < 100; t++) usleep(10000);
            _exit(v[4096] == i + 1 ? 0 : 1);
        }
        if (pid < 0) {
            printf("fork failed\n");
            return 1;
        }
    }
    int held = 0, status;
    while (wait(&status) > 0)
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0) held++;
    printf("held %d MiB in %d processes\n", held * MIB, held);
    return 0;
}
