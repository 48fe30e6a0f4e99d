# A student's Nim that ends at once: the class it is in tests where reports are written.
print("bye")
