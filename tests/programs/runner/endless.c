/* Hostile: writes forever. */
#include <stdio.h>
int main(void) {
    for (;;) fputs("yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy\n", stdout);
}
