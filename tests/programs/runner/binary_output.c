/* Writes invalid UTF-8, NUL bytes and carriage returns. */
#include <unistd.h>
int main(void) {
    static const char out[] = "ok\xff\xfe bad\0nul\r\nend\n";
    write(1, out, sizeof out - 1);
    return 0;
}
