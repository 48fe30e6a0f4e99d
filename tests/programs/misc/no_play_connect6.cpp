// NOT A GAME: prints an empty board and each message the Connect6 handout fixes (and the
// results) once, reads no input and exits. Must score at most 5 % of connect6's points.
#include <iostream>

int main() {
    std::cout << "   A B C D E F G H I J K L M N O P Q R S\n";
    for (int r = 0; r < 19; ++r) {
        std::cout << (r < 10 ? " " : "") << r;
        for (int c = 0; c < 19; ++c) std::cout << " .";
        std::cout << "\n";
    }
    std::cout << "Black's move: \n";
    std::cout << "Invalid Enter again!\n";
    std::cout << "Black wins!\n";
    std::cout << "White wins!\n";
    std::cout << "Draw!\n";
    return 0;
}
