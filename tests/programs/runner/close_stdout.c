/* Hostile: closes stdout and keeps running. */
#include <unistd.h>
int main(void) {
    close(1);
    close(2);
    for (;;) sleep(1);
}
