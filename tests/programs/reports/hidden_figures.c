/* A student's Nim that signals through its run's figures. On the hidden case (its first line
 * is "P") it holds 77 MiB, burns about 0.4 s of CPU and exits with status 173: a report that
 * shows a hidden case's exit code, CPU time or peak memory hands its input to the student.
 * Anywhere else it prints a line and exits 0. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(void) {
    char line[64];
    printf("Player Turn - Matches: ||||| ||||| ||||| ||||| |\n");
    fflush(stdout);
    if (!fgets(line, sizeof line, stdin) || line[0] != 'P') {
        puts("bye");
        return 0;
    }
    size_t size = (size_t)77 << 20;
    volatile char *block = malloc(size);
    if (!block) {
        return 1;
    }
    for (size_t i = 0; i < size; i += 4096) {
        block[i] = 1;
    }
    clock_t end = clock() + CLOCKS_PER_SEC * 4 / 10;
    volatile unsigned long spin = 0;
    while (clock() < end) {
        spin++;
    }
    return 173;
}
