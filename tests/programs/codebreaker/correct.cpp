// Codebreaker (tests/assignments/codebreaker/handout.md) in C++, written from the handout:
// std::getline on std::cin, the prompt "guess> ", the code read with std::ifstream.
#include <fstream>
#include <iostream>
#include <string>

static bool isCode(const std::string& text) {
    if (text.size() != 4) return false;
    for (char c : text) {
        if (c < '1' || c > '6') return false;
    }
    return true;
}

static std::string trimSpaces(const std::string& text) {
    std::string::size_type first = text.find_first_not_of(' ');
    if (first == std::string::npos) return "";
    std::string::size_type last = text.find_last_not_of(' ');
    return text.substr(first, last - first + 1);
}

int main(int argc, char* argv[]) {
    std::string code;
    if (argc >= 2) {
        std::ifstream file(argv[1]);
        if (file) {
            std::getline(file, code);
            code = trimSpaces(code);
        }
    }
    if (!isCode(code)) {
        std::cout << "Cannot read the code." << std::endl;
        return 1;
    }
    int used = 0;
    while (used < 10) {
        std::cout << "guess> " << std::flush;
        std::string line;
        if (!std::getline(std::cin, line)) {
            std::cout << "\nYou quit! The code was " << code << "." << std::endl;
            return 0;
        }
        std::string guess = trimSpaces(line);
        if (!isCode(guess)) {
            std::cout << "Invalid guess." << std::endl;
            continue;
        }
        used++;
        int black = 0;
        int codeCounts[7] = {0};
        int guessCounts[7] = {0};
        for (int i = 0; i < 4; i++) {
            if (code[i] == guess[i]) black++;
            codeCounts[code[i] - '0']++;
            guessCounts[guess[i] - '0']++;
        }
        int common = 0;
        for (int d = 1; d <= 6; d++) {
            common += codeCounts[d] < guessCounts[d] ? codeCounts[d] : guessCounts[d];
        }
        std::cout << "Black: " << black << " White: " << common - black << std::endl;
        if (black == 4) {
            std::cout << "You win! Guesses: " << used << std::endl;
            return 0;
        }
    }
    std::cout << "You lose! The code was " << code << "." << std::endl;
    return 0;
}
