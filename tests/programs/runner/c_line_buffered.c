/* Prompts three times with printf, never flushing, reading each answer with fgets; then
   says how C stdio buffered stdin and stdout (glibc's __flbf, known once a stream was used).
   On a terminal both are line-buffered and each prompt appears before its read. */
#include <stdio.h>
#include <stdio_ext.h>
int main(void) {
    char line[64];
    for (int i = 1; i <= 3; i++) {
        printf("Move %d? ", i);
        if (!fgets(line, sizeof line, stdin)) return 1;
        printf("You typed %s", line);
    }
    printf("stdout %s\n", __flbf(stdout) ? "line-buffered" : "not line-buffered");
    printf("stdin %s\n", __flbf(stdin) ? "line-buffered" : "not line-buffered");
    return 0;
}
