"""Hostile helpers, chosen by argv[1]."""
import os
import sys
import time

mode = sys.argv[1]
if mode == "read-then-sleep":
    input("Name? ")
    time.sleep(100)
elif mode == "fork-keeps-stdout":
    if os.fork() == 0:
        time.sleep(100)
    else:
        print("parent done")
elif mode == "setsid-keeps-stdout":
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            time.sleep(100)
        os._exit(0)
    else:
        time.sleep(0.1)
        print("parent done")
elif mode == "memory":
    hog = []
    while True:
        hog.append(b"x" * 10_000_000)
elif mode == "env":
    for k, v in sorted(os.environ.items()):
        print(f"{k}={v}")
elif mode == "fork-many":
    children = 0
    for _ in range(50):
        try:
            if os.fork() == 0:
                time.sleep(100)
                os._exit(0)
            children += 1
        except OSError:
            break
    print("forked", children)
