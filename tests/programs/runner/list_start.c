/* `grade run -- ./list_start DIR...` started from a course's directory (issue 31, attack 4):
 * lists each DIR given (the directory grade was started from), the run's working directory,
 * its parent and /, printing "ENTRY path/name" for every entry it sees and "READ path" for
 * every file of DIR it can read, then "listing done". */
#include <dirent.h>
#include <stdio.h>
#include <string.h>

static void list(const char *dir, int read_files) {
    DIR *d = opendir(dir);
    if (!d) {
        printf("cannot list %s\n", dir);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        printf("ENTRY %s/%s\n", dir, e->d_name);
        if (read_files) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            FILE *f = fopen(path, "r");
            char line[80];
            if (f && fgets(line, sizeof line, f)) printf("READ %s: %s", path, line);
            if (f) fclose(f);
        }
    }
    closedir(d);
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) list(argv[i], 1);
    list(".", 0);
    list("..", 0);
    list("/", 0);
    printf("listing done\n");
    return 0;
}
