// Prompts with cout (tied to cin, so flushed before each read).
#include <iostream>
int main() {
    int a = 0, b = 0;
    std::cout << "Number? ";
    if (!(std::cin >> a)) return 1;
    std::cout << "Another? ";
    if (!(std::cin >> b)) return 1;
    std::cout << "Sum: " << a + b << "\n";
    return 0;
}
