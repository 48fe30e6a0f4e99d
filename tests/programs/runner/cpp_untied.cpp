// Untied cin: prompts stay in the buffer until exit.
#include <iostream>
int main() {
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    int a = 0, b = 0;
    std::cout << "Number? ";
    if (!(std::cin >> a)) return 1;
    std::cout << "Another? ";
    if (!(std::cin >> b)) return 1;
    std::cout << "Sum: " << a + b << "\n";
    return 0;
}
