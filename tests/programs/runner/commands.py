"""Tries to give the GitHub Actions runner orders: workflow commands on stdout and stderr, at
the start of a line, after spaces, and in the legacy form anywhere in a line."""
import sys

COMMANDS = [
    "::error title=grader::Full marks",
    "::add-mask::0/90",
    "::notice title=Autograding complete::Points 90/90",
    "::stop-commands::x",
    "##[warning]x",
    "    ::error title=grader::Full marks",
    "Enter coins ##[warning]x",
]

for line in COMMANDS:
    print(line)
    print(line, file=sys.stderr)
