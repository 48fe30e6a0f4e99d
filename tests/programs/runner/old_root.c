/* Hostile: tries to reach the host's root that the run's own root covers (rootfs layer):
 * unmounts the cover at /.grade-old-root, directly and after making a user and mount
 * namespace of its own, then lists what is under it. Prints "reached" and the names if any
 * attempt shows a directory with entries. */
#define _GNU_SOURCE
#include <dirent.h>
#include <sched.h>
#include <stdio.h>
#include <sys/mount.h>

static int list(const char *when) {
    DIR *d = opendir("/.grade-old-root");
    if (!d) return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        if (n == 0) printf("reached %s:", when);
        printf(" %s", e->d_name);
        n++;
    }
    closedir(d);
    if (n) printf("\n");
    return n;
}

int main(void) {
    umount2("/.grade-old-root", MNT_DETACH);
    list("after umount");
    if (unshare(CLONE_NEWUSER | CLONE_NEWNS) == 0) {
        umount2("/.grade-old-root", MNT_DETACH);
        list("in a namespace of its own");
    }
    printf("old root done\n");
    return 0;
}
