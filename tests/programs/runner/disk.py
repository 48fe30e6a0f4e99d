"""Fills the working directory, chosen by argv[1]: a 15 000-level tree, or 5 x 60 MiB files."""
import os
import sys

mode = sys.argv[1]
if mode == "deep-tree":
    for i in range(15000):
        os.mkdir("d")
        os.chdir("d")
    print("deep done")
elif mode == "fill":
    block = b"x" * (1 << 20)
    for n in range(5):
        with open(f"fill{n}", "wb") as f:
            for _ in range(60):
                f.write(block)
    print("fill done")
