import sys
print("Number? ", end="")
a = int(sys.stdin.readline())
print("Another? ", end="")
b = int(sys.stdin.readline())
print("Sum:", a + b)
