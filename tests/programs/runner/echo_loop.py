# Benchmark program: ten prompts, each answered by one line.
for i in range(10):
    line = input(f"Move {i}? ")
    print("You said", line)
