/* Hostile: kills its parent and everything it may signal. */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
int main(void) {
    printf("parent %d\n", (int)getppid());
    fflush(stdout);
    kill(getppid(), SIGKILL);
    kill(-getppid(), SIGKILL);
    kill(-1, SIGKILL);
    printf("still here\n");
    return 0;
}
