# Hostile: tries to pass state from one run to the next through its working directory.
import os

MARK_TIME = 1234567
PLANTED_MODE = 0o751
here = os.getcwd()
found = []
for name in os.listdir("."):
    if name.startswith("planted"):
        found.append("file " + name)
try:
    for attr in os.listxattr("."):
        found.append("xattr " + attr)
except OSError:
    pass
st = os.stat(".")
if st.st_mode & 0o777 == PLANTED_MODE:
    found.append("mode %o" % (st.st_mode & 0o777))
if int(st.st_mtime) == MARK_TIME or int(st.st_atime) == MARK_TIME:
    found.append("times")
print("LEFT BY AN EARLIER RUN: " + ", ".join(found) if found else "nothing left by an earlier run")
with open("planted.txt", "w") as f:
    f.write("state")
os.makedirs("planted-dir/deeper", exist_ok=True)
os.chmod("planted-dir", 0o000)
try:
    os.setxattr(".", "user.grade-state", b"1")
except OSError as e:
    print("xattr refused:", e.errno)
os.chmod(".", PLANTED_MODE)
os.utime(".", (MARK_TIME, MARK_TIME))
print("Welcome to Nim!")
