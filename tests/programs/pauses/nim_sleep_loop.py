# Sleeps in an endless loop: prints the title and the first question, reads the answer, then
# prints "Waiting for the computer..." and sleeps 1 s (time.sleep), forever.
import time

print("The game of Nim. The player to remove the last match loses.")
print()
input("Would you like to go first? (Y/N): ")
while True:
    print("Waiting for the computer...", flush=True)
    time.sleep(1)
