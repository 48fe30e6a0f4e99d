/* Prompts with printf and never flushes; reads with scanf. */
#include <stdio.h>
int main(void) {
    int a = 0, b = 0;
    printf("Number? ");
    if (scanf("%d", &a) != 1) return 1;
    printf("Another? ");
    if (scanf("%d", &b) != 1) return 1;
    printf("Sum: %d\n", a + b);
    return 0;
}
