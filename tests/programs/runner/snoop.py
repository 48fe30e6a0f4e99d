"""Hostile: looks for cases, references and the grader outside its working directory."""
import os
import sys

found = []
home = os.getcwd()
try:
    tops = os.listdir("/")
except OSError as e:
    print("denied listing /", e.errno)
    tops = ["tmp", "root", "work", "home", "etc", "opt", "var", "srv", "mnt"]
for top in tops:
    if top in ("proc", "sys", "usr", "lib", "lib64", "lib32", "bin", "sbin", "dev", "boot", "var", "run", "snap"):
        continue
    for root, dirs, files in os.walk("/" + top, onerror=lambda e: None):
        if root.startswith(home):
            continue
        for f in files:
            if f.endswith((".yaml", ".txt", ".json")):
                path = os.path.join(root, f)
                try:
                    with open(path, "rb") as fh:
                        print("READ", path, fh.read(200))
                except OSError as e:
                    found.append(path)
for path in sys.argv[1:]:
    try:
        with open(path, "rb") as fh:
            print("READ-DIRECT", path, fh.read(200))
    except OSError as e:
        print("denied", path, e.errno)
ppid = os.getppid()
for name in ("exe", "cmdline", "environ", "mem", "maps"):
    try:
        with open(f"/proc/{ppid}/{name}", "rb") as fh:
            data = fh.read(4096)
            print("PARENT-" + name.upper() + "-READ", len(data), data[:200])
    except OSError as e:
        print("denied", name, e.errno)
try:
    print("exe link", os.readlink(f"/proc/{ppid}/exe"))
except OSError as e:
    print("denied readlink", e.errno)
for k, v in sorted(os.environ.items()):
    print(f"ENV {k}={v}")
print("snoop done")
