/* Tries to run a copy of the grader inside a grading by hiding the grader lock (issue 21,
 * attack 2): stacks its own seccomp filter answering the marked prctl with an errno (EINVAL,
 * as on a machine without the mark, or 0: success), preloads a fake prctl (argv[2]) and execs
 * the copy (argv[1]) as `grade play nim`. argv[3] picks the filter's errno: "einval" or "zero".
 * Whatever grade prints is the run's output. */
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define GRADER_MARK 0x47524144u

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: mask_lock GRADE FAKE_PRCTL_SO einval|zero\n");
        return 64;
    }
    unsigned errno_value = strcmp(argv[3], "zero") == 0 ? 0 : 22;
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_prctl, 0, 3),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, GRADER_MARK, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | errno_value),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {sizeof filter / sizeof filter[0], filter};
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0) {
        perror("seccomp");
        return 65;
    }
    printf("mask installed\n");
    fflush(stdout);
    setenv("LD_PRELOAD", argv[2], 1);
    char *args[] = {argv[1], "play", "nim", NULL};
    execv(argv[1], args);
    perror("execv");
    return 66;
}
