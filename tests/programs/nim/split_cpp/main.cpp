// CS 135 Assignment 4 - Nim, split into main.cpp, nim_helpers.cpp and nim_helpers.h (with a
// test program of its own in tests/, as students keep one): the game loop lives here.
#include <iostream>

#include "nim_helpers.h"

using namespace std;

int main()
{
    cout << "The game of Nim. The player to remove the last match loses." << endl;
    char again;
    do {
        char first = askYesNo("Would you like to go first? (Y/N): ");
        bool playerTurn = (first == 'Y' || first == 'y');
        int matches = 21;
        while (true) {
            cout << (playerTurn ? "Player" : "Computer") << " Turn - Matches: ";
            printMatches(matches);
            if (matches == 1) {
                cout << (playerTurn ? "Game Over - Computer wins." : "Game Over - Player wins.")
                     << endl;
                break;
            }
            if (playerTurn) {
                matches -= askRemove();
            } else {
                int take = computerMove(matches);
                cout << "Computer removes " << take << "." << endl;
                matches -= take;
            }
            playerTurn = !playerTurn;
        }
        again = askYesNo("Would you like to play again? (Y/N): ");
    } while (again == 'Y' || again == 'y');
    return 0;
}
