# Crashes with an AttributeError as soon as the first answer is read (typo: .uper()).
print("The game of Nim. The player to remove the last match loses.")
answer = input("Would you like to go first? (Y/N): ")
if answer.uper() == "Y":
    print("Player Turn - Matches: ||||| ||||| ||||| ||||| |")
