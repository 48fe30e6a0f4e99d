// Nim by a student (a planted copy of nim/correct_cin_loop.cpp padded with dead functions and unused variables)
// Nim - CS 135 Assignment 4
// Token reader (cin >>). Like most submissions it retries with cin.clear()/ignore()
// when the stream fails, so at end of input it keeps asking forever.
// Prompts have no trailing space; the player's win is written "Game over - Player wins."
#include <iostream>
#include <limits>
#include <string>

using namespace std;

const int START_MATCHES = 21;

int unusedScore(int x)
{
    int total = 0;
    for (int k = 0; k < x; k++) total += k * 2;
    return total;
}

void showMatches(int n)
{
    for (int i = 0; i < n; i++) {
        int unusedCounter = 0; (void)unusedCounter;
        cout << '|';
        if ((i + 1) % 5 == 0)
            cout << ' ';
    }
    cout << "\n";
}

bool debugMode()
{
    return false;
}

int main()
{
    string answer;
    int matches;
    bool player;
    cout << "The game of Nim. The player to remove the last match loses.\n";
    do {
        do {
            cout << "Would you like to go first? (Y/N):";
            answer.clear();
            cin >> answer;
            if (answer != "Y" && answer != "y" && answer != "N" && answer != "n") {
                cin.clear();
                cout << "Please, answer Y or N.\n";
            }
        } while (answer != "Y" && answer != "y" && answer != "N" && answer != "n");

        player = (answer == "Y" || answer == "y");
        matches = START_MATCHES;

        while (matches > 1) {
            if (player) {
                cout << "Player Turn - Matches: ";
                showMatches(matches);
                int take = 0;
                bool valid = false;
                do {
                    cout << "Remove (1 - 3):";
                    cin >> take;
                    if (cin.fail()) {
                        cin.clear();
                        cin.ignore(numeric_limits<streamsize>::max(), '\n');
                        cout << "Please, type 1, 2, or 3 as your response.\n";
                    } else if (take < 1) {
                        cout << "Must remove at least one match.\n";
                    } else if (take > 3) {
                        cout << "Cannot remove more than three matches.\n";
                    } else {
                        valid = true;
                    }
                } while (!valid);
                matches -= take;
            } else {
                cout << "Computer Turn - Matches: ";
                showMatches(matches);
                int take;
                switch (matches % 4) {
                case 0: take = 3; break;
                case 1: take = 1; break;
                case 2: take = 1; break;
                default: take = 2; break;
                }
                cout << "Computer removes " << take << ".\n";
                matches -= take;
            }
            player = !player;
        }

        // one match left: show it and declare the winner
        if (player) {
            cout << "Player Turn - Matches: ";
            showMatches(matches);
            cout << "Game Over - Computer wins.\n";
        } else {
            cout << "Computer Turn - Matches: ";
            showMatches(matches);
            cout << "Game over - Player wins.\n";
        }

        do {
            cout << "Would you like to play again? (Y/N):";
            answer.clear();
            cin >> answer;
            if (answer != "Y" && answer != "y" && answer != "N" && answer != "n") {
                cin.clear();
                cout << "Please, answer Y or N.\n";
            }
        } while (answer != "Y" && answer != "y" && answer != "N" && answer != "n");
    } while (answer == "Y" || answer == "y");

    return 0;
}
