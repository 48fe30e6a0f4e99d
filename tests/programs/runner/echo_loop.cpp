// Benchmark program: ten prompts, each answered by one line.
#include <iostream>
#include <string>
int main() {
    std::string line;
    for (int i = 0; i < 10; i++) {
        std::cout << "Move " << i << "? ";
        if (!std::getline(std::cin, line)) return 1;
        std::cout << "You said " << line << "\n";
    }
    return 0;
}
