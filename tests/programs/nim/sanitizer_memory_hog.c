/* Hostile for the sanitizer pass: touches 400 MiB, 1 MiB at a time, whatever the memory
 * limit (tests/sanitizers.rs: the instrumented run, which has no RLIMIT_DATA because ASan
 * reserves its shadow, is still held to the limit by the supervisor's accounting). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    volatile char sink = 0;
    for (int i = 0; i < 400; i++) {
        char *block = malloc(1 << 20);
        if (block == NULL) {
            break;
        }
        memset(block, i + 1, 1 << 20);
        sink ^= block[i];
    }
    printf("Welcome to Nim%c\n", sink == 1 ? '!' : '.');
    return 0;
}
