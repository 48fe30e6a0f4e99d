# A Nim attempt with a syntax error (a missing colon): a build failure, reported once.
print("The game of Nim. The player to remove the last match loses.")
answer = input("Would you like to go first? (Y/N): ")
if answer in ("Y", "y")
    print("Player Turn - Matches: ||||| ||||| ||||| ||||| |")
