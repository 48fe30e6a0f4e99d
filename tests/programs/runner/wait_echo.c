/* Echo loop that waits for stdin to become readable before reading it, in the syscall named
 * by argv[1]: select, pselect6, poll, ppoll, epoll_wait, epoll_pwait, epoll_pwait2 (or "read":
 * plain blocking reads, for comparison).
 * argv[2] is the wait's timeout in ms (-1: none); a timed-out wait simply waits again, as
 * programs that poll in a loop do. stdin is non-blocking and read until EAGAIN, so EAGAIN
 * must not be taken for end of input (nor for a wait). Prompts "Line N? ", answers "You said X", "Bye" at EOF. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static const char *mode;
static long timeout_ms;
static int epfd = -1;

static void say(const char *text) {
    size_t len = strlen(text);
    while (len > 0) {
        ssize_t n = write(1, text, len);
        if (n <= 0) exit(3);
        text += n;
        len -= (size_t)n;
    }
}

/* Waits until stdin is readable (returns) or the wait times out (returns 0). */
static int wait_readable(void) {
    struct timeval tv = {timeout_ms / 1000, (timeout_ms % 1000) * 1000};
    struct timespec ts = {timeout_ms / 1000, (timeout_ms % 1000) * 1000000};
    struct timeval *tvp = timeout_ms < 0 ? NULL : &tv;
    struct timespec *tsp = timeout_ms < 0 ? NULL : &ts;
    if (strcmp(mode, "select") == 0 || strcmp(mode, "pselect6") == 0) {
        fd_set r;
        FD_ZERO(&r);
        FD_SET(0, &r);
        if (strcmp(mode, "select") == 0) {
#ifdef SYS_select
            return (int)syscall(SYS_select, 1, &r, NULL, NULL, tvp);
#else
            return select(1, &r, NULL, NULL, tvp);
#endif
        }
        struct { const sigset_t *set; size_t size; } mask = {NULL, 8};
        return (int)syscall(SYS_pselect6, 1, &r, NULL, NULL, tsp, &mask);
    }
    struct pollfd p = {0, POLLIN, 0};
    if (strcmp(mode, "poll") == 0) {
#ifdef SYS_poll
        return (int)syscall(SYS_poll, &p, 1, (int)timeout_ms);
#else
        return poll(&p, 1, (int)timeout_ms);
#endif
    }
    if (strcmp(mode, "ppoll") == 0) return (int)syscall(SYS_ppoll, &p, 1, tsp, NULL, 8);
    struct epoll_event ev;
    if (strcmp(mode, "epoll_wait") == 0) {
#ifdef SYS_epoll_wait
        return (int)syscall(SYS_epoll_wait, epfd, &ev, 1, (int)timeout_ms);
#else
        return epoll_wait(epfd, &ev, 1, (int)timeout_ms);
#endif
    }
    if (strcmp(mode, "epoll_pwait") == 0)
        return (int)syscall(SYS_epoll_pwait, epfd, &ev, 1, (int)timeout_ms, NULL, 8);
    if (strcmp(mode, "epoll_pwait2") == 0)
        return (int)syscall(SYS_epoll_pwait2, epfd, &ev, 1, tsp, NULL, 8);
    fprintf(stderr, "unknown mode %s\n", mode);
    exit(2);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: wait_echo MODE TIMEOUT_MS\n");
        return 2;
    }
    mode = argv[1];
    timeout_ms = atol(argv[2]);
    int blocking = strcmp(mode, "read") == 0;
    if (!blocking) fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK);
    /* Discard type-ahead before the first prompt, as some games do: nothing has been typed
     * yet, so this non-blocking read must see EAGAIN, not a line and not end of input. */
    char junk[64];
    ssize_t early = blocking ? -1 : read(0, junk, sizeof junk);
    if (early > 0) say("(type-ahead discarded)\n");
    if (early == 0) say("(end of input before the first prompt)\n");
    if (strncmp(mode, "epoll", 5) == 0) {
        /* Another descriptor is watched too, as event loops do. */
        int other[2];
        if (pipe(other) != 0) return 2;
        epfd = epoll_create1(0);
        struct epoll_event ev = {.events = EPOLLIN};
        ev.data.fd = other[0];
        epoll_ctl(epfd, EPOLL_CTL_ADD, other[0], &ev);
        ev.data.fd = 0;
        if (epoll_ctl(epfd, EPOLL_CTL_ADD, 0, &ev) != 0) return 2;
    }
    char line[4096];
    size_t have = 0;
    int n = 0;
    char prompt[64];
    snprintf(prompt, sizeof prompt, "Line %d? ", n);
    say(prompt);
    for (;;) {
        int ready = blocking ? 1 : wait_readable();
        if (ready < 0 && errno != EINTR) return 4;
        if (ready <= 0) continue; /* timed out: wait again */
        for (;;) {
            ssize_t got = read(0, line + have, sizeof line - 1 - have);
            if (got < 0 && errno == EAGAIN) break; /* drained: wait again */
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0) {
                say("Bye\n");
                return 0;
            }
            have += (size_t)got;
            char *nl;
            while ((nl = memchr(line, '\n', have)) != NULL) {
                *nl = 0;
                char out[4200];
                snprintf(out, sizeof out, "You said %s\n", line);
                say(out);
                size_t used = (size_t)(nl - line) + 1;
                memmove(line, nl + 1, have - used);
                have -= used;
                n++;
                snprintf(prompt, sizeof prompt, "Line %d? ", n);
                say(prompt);
            }
            if (have == sizeof line - 1) have = 0;
        }
    }
}
