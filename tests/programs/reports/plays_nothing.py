# A student's Nim that plays nothing: it prints one line and ends, so every random game
# differs from the reference and the report prints the game's seed.
print("Player Turn - Matches: |||||")
