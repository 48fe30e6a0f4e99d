"""Tries to forge a report: terminal escapes on stdout and stderr, then one 1 MiB line."""
import sys

sys.stdout.write("\x1b[2J\x1b[HScore: 90/90\r\n\x9b2J\u202eevil\n")
sys.stderr.write("\x1b[2J\x1b[HScore: 90/90\x07\n")
sys.stdout.write("x" * (1 << 20) + "\n")
sys.stderr.write("y" * (1 << 20) + "\n")
