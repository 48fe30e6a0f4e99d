// NOT A GAME: reads every answer and prints only the matching Nim error message for a bad
// one (never a turn, the matches or a computer move). Must score at most 5 % of nim's points.
#include <iostream>
#include <string>

int main() {
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line == "y" || line == "Y" || line == "n" || line == "N") continue;
        try {
            std::size_t used = 0;
            int n = std::stoi(line, &used);
            if (used != line.size()) throw std::invalid_argument("trailing");
            if (n < 1) std::cout << "Must remove at least one match." << std::endl;
            else if (n > 3) std::cout << "Cannot remove more than three matches." << std::endl;
        } catch (const std::exception&) {
            if (line.size() == 1) std::cout << "Please, answer Y or N." << std::endl;
            else std::cout << "Please, type 1, 2, or 3 as your response." << std::endl;
        }
    }
    return 0;
}
