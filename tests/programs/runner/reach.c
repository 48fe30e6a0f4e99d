/* Hostile (issue 21, attack 1): tries to read and to execute every path it is given (the
 * grader's binary and its copies, an instructor's hidden cases and references). Prints
 * "READ path" when it read a byte, "EXEC path" when an exec succeeded, otherwise why not;
 * "done" at the end. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void try_read(const char *path) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        printf("no read %s: %s\n", path, strerror(errno));
        return;
    }
    char c;
    if (read(fd, &c, 1) == 1)
        printf("READ %s\n", path);
    else
        printf("no read %s: %s\n", path, strerror(errno));
    close(fd);
}

static void try_exec(const char *path) {
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) return;
    pid_t pid = fork();
    if (pid == 0) {
        char *args[] = {(char *)path, "list", NULL};
        char *env[] = {NULL};
        int devnull = open("/dev/null", O_WRONLY);
        dup2(devnull, 1);
        dup2(devnull, 2);
        execve(path, args, env);
        int e = errno;
        (void)!write(report[1], &e, sizeof e);
        _exit(127);
    }
    close(report[1]);
    int e = 0;
    ssize_t n = read(report[0], &e, sizeof e);
    close(report[0]);
    waitpid(pid, NULL, 0);
    if (n == 0)
        printf("EXEC %s\n", path);
    else
        printf("no exec %s: %s\n", path, strerror(e));
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        try_read(argv[i]);
        try_exec(argv[i]);
    }
    printf("done\n");
    fflush(stdout);
    return 0;
}
