a = int(input("Number? "))
b = int(input("Another? "))
print("Sum:", a + b)
