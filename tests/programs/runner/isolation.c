/* Hostile probes of per-run isolation, chosen by argv[1]. Prints LEAK-... when one gets through. */
#include <errno.h>
#include <fcntl.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#define KEY_SPEC_SESSION_KEYRING -3
#define KEY_SPEC_USER_KEYRING -4
#define KEYCTL_SEARCH 10

static void fds(void) {
    char buf[64];
    for (int fd = 3; fd < 64; fd++) {
        if (fcntl(fd, F_GETFD) < 0) continue;
        ssize_t n = read(fd, buf, sizeof buf - 1);
        if (n > 0) {
            buf[n] = 0;
            printf("LEAK-READ %d %s\n", fd, buf);
        }
        if (write(fd, "student was here\n", 17) > 0) printf("LEAK-WRITE %d\n", fd);
        printf("open fd %d\n", fd);
    }
    printf("fds done\n");
}

static void shm_create(key_t key) {
    int id = shmget(key, 1 << 20, IPC_CREAT | 0666);
    if (id < 0) { printf("shmget failed %s\n", strerror(errno)); return; }
    char *p = shmat(id, NULL, 0);
    if (p == (void *)-1) { printf("shmat failed\n"); return; }
    strcpy(p, "hidden case input");
    printf("created %d\n", id);
}

static void shm_find(key_t key) {
    int id = shmget(key, 0, 0);
    if (id >= 0) {
        char *p = shmat(id, NULL, SHM_RDONLY);
        printf("LEAK-SHM %s\n", p == (void *)-1 ? "?" : p);
    } else {
        printf("shm absent\n");
    }
}

static void key_add(void) {
    long a = syscall(SYS_add_key, "user", "grade-test-key", "hidden", 6, KEY_SPEC_USER_KEYRING);
    long b = syscall(SYS_add_key, "user", "grade-test-key", "hidden", 6, KEY_SPEC_SESSION_KEYRING);
    printf("added %ld %ld\n", a, b);
}

static void key_find(void) {
    long a = syscall(SYS_keyctl, KEYCTL_SEARCH, KEY_SPEC_USER_KEYRING, "user", "grade-test-key", 0);
    long b = syscall(SYS_keyctl, KEYCTL_SEARCH, KEY_SPEC_SESSION_KEYRING, "user", "grade-test-key", 0);
    if (a >= 0 || b >= 0) printf("LEAK-KEY %ld %ld\n", a, b);
    else printf("key absent\n");
}

static void unix_names(const char *needle) {
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    const char *own = "grade-run-own-name";
    memcpy(addr.sun_path + 1, own, strlen(own));
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    if (s >= 0 && bind(s, (struct sockaddr *)&addr, sizeof(sa_family_t) + 1 + strlen(own)) == 0)
        printf("bound\n");
    FILE *f = fopen("/proc/net/unix", "r");
    char line[512];
    while (f && fgets(line, sizeof line, f))
        if (strstr(line, needle)) printf("LEAK-NAME %s", line);
    printf("names done\n");
}

static void ttys(void) {
    char path[64];
    const char *fixed[] = {"/dev/tty", "/dev/ptmx", "/dev/console", "/dev/tty0", "/dev/tty1"};
    for (unsigned i = 0; i < sizeof fixed / sizeof *fixed; i++) {
        int fd = open(fixed[i], O_RDWR | O_NOCTTY);
        if (fd >= 0) printf("OPENED %s\n", fixed[i]);
    }
    for (int i = 0; i < 64; i++) {
        snprintf(path, sizeof path, "/dev/pts/%d", i);
        int fd = open(path, O_RDWR | O_NOCTTY);
        if (fd >= 0) printf("OPENED %s\n", path);
    }
    printf("ttys done\n");
}

/* POSIX shared memory and a named semaphore: made, then opened again by name and used, as
   two processes of one program would. Prints "posix works" when both do. */
static void posix_create(const char *name) {
    int fd = shm_open(name, O_CREAT | O_RDWR, 0600);
    if (fd < 0) { printf("shm_open failed %s\n", strerror(errno)); return; }
    if (ftruncate(fd, 4096) != 0) { printf("ftruncate failed %s\n", strerror(errno)); return; }
    char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) { printf("mmap failed %s\n", strerror(errno)); return; }
    strcpy(p, "SECRET-POSIX");
    int again = shm_open(name, O_RDONLY, 0);
    char *q = again < 0 ? MAP_FAILED : mmap(NULL, 4096, PROT_READ, MAP_SHARED, again, 0);
    if (q == MAP_FAILED || strcmp(q, "SECRET-POSIX") != 0) { printf("shm reopen failed\n"); return; }
    sem_t *s = sem_open(name, O_CREAT, 0600, 0);
    if (s == SEM_FAILED) { printf("sem_open failed %s\n", strerror(errno)); return; }
    sem_t *t = sem_open(name, 0);
    if (t == SEM_FAILED || sem_post(s) != 0 || sem_trywait(t) != 0) { printf("sem reuse failed\n"); return; }
    sem_post(s);
    printf("posix works\n");
}

/* What another run may have left: the shared memory object or the semaphore by name. */
static void posix_find(const char *name) {
    int fd = shm_open(name, O_RDONLY, 0);
    if (fd >= 0) printf("LEAK-POSIX-SHM\n"); else printf("posix shm absent\n");
    sem_t *s = sem_open(name, 0);
    if (s != SEM_FAILED) printf("LEAK-POSIX-SEM\n"); else printf("posix sem absent\n");
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    const char *mode = argv[1];
    if (!strcmp(mode, "fds")) fds();
    else if (!strcmp(mode, "shm-create") && argc > 2) shm_create(atoi(argv[2]));
    else if (!strcmp(mode, "shm-find") && argc > 2) shm_find(atoi(argv[2]));
    else if (!strcmp(mode, "key-add")) key_add();
    else if (!strcmp(mode, "key-find")) key_find();
    else if (!strcmp(mode, "unix-names") && argc > 2) unix_names(argv[2]);
    else if (!strcmp(mode, "ttys")) ttys();
    else if (!strcmp(mode, "posix-create") && argc > 2) posix_create(argv[2]);
    else if (!strcmp(mode, "posix-find") && argc > 2) posix_find(argv[2]);
    else return 2;
    return 0;
}
