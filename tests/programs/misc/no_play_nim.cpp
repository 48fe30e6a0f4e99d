// NOT A GAME: prints each message the Nim handout fixes once, reads no input and exits.
// Must score at most 5 % of nim's points: a message counts only at its place in a game.
#include <iostream>

int main() {
    std::cout << "The game of Nim. The player to remove the last match loses.\n";
    std::cout << "Would you like to go first? (Y/N): \n";
    std::cout << "Player Turn - Matches: ||||| ||||| ||||| ||||| |\n";
    std::cout << "Remove (1 - 3): \n";
    std::cout << "Computer Turn - Matches: ||||| ||||| ||||| |||\n";
    std::cout << "Computer removes 1.\n";
    std::cout << "Please, answer Y or N.\n";
    std::cout << "Please, type 1, 2, or 3 as your response.\n";
    std::cout << "Must remove at least one match.\n";
    std::cout << "Cannot remove more than three matches.\n";
    std::cout << "Game Over - Computer wins.\n";
    std::cout << "Game Over - Player wins.\n";
    std::cout << "Would you like to play again? (Y/N): \n";
    return 0;
}
