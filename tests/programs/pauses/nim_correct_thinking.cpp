// CS 135 Assignment 4 - Nim
// Reads every answer as a whole line with getline and validates it.
// Starts with a blank line and prints an extra blank line between turns. Exits quietly at
// end of input.
// Pauses for effect: prints "Computer is thinking..." and sleeps 0.7 s before each computer
// move (std::this_thread::sleep_for).
#include <chrono>
#include <thread>
#include <iostream>
#include <string>
#include <sstream>
#include <cstdlib>

using namespace std;

// print the matches in groups of five, a space after each full group
void printMatches(int matches)
{
    for (int i = 1; i <= matches; i++) {
        cout << "|";
        if (i % 5 == 0) {
            cout << " ";
        }
    }
    cout << endl;
}

string readLine()
{
    string line;
    if (!getline(cin, line)) {
        exit(0); // no more input
    }
    // trim spaces and a stray carriage return
    size_t b = line.find_first_not_of(" \t\r");
    size_t e = line.find_last_not_of(" \t\r");
    if (b == string::npos) return "";
    return line.substr(b, e - b + 1);
}

char askYesNo(const string& question)
{
    string answer;
    do {
        cout << question;
        answer = readLine();
        if (answer == "Y" || answer == "y" || answer == "N" || answer == "n") {
            break;
        }
        cout << "Please, answer Y or N." << endl;
    } while (true);
    return answer[0];
}

int askRemove()
{
    int amount = 0;
    bool ok = false;
    do {
        cout << "Remove (1 - 3): ";
        string line = readLine();
        stringstream ss(line);
        string rest;
        if (!(ss >> amount) || (ss >> rest)) {
            cout << "Please, type 1, 2, or 3 as your response." << endl;
        } else if (amount < 1) {
            cout << "Must remove at least one match." << endl;
        } else if (amount > 3) {
            cout << "Cannot remove more than three matches." << endl;
        } else {
            ok = true;
        }
    } while (!ok);
    return amount;
}

int computerMove(int matches)
{
    int r = matches % 4;
    if (r == 0) return 3;
    if (r == 3) return 2;
    return 1; // remainder 1 or 2
}

int main()
{
    cout << endl << "The game of Nim. The player to remove the last match loses." << endl;
    char again;
    do {
        cout << endl;
        char first = askYesNo("Would you like to go first? (Y/N): ");
        bool playerTurn = (first == 'Y' || first == 'y');
        int matches = 21;
        while (true) {
            cout << endl;
            if (playerTurn) {
                cout << "Player Turn - Matches: ";
                printMatches(matches);
                if (matches == 1) {
                    cout << "Game Over - Computer wins." << endl;
                    break;
                }
                matches -= askRemove();
            } else {
                cout << "Computer Turn - Matches: ";
                printMatches(matches);
                if (matches == 1) {
                    cout << "Game Over - Player wins." << endl;
                    break;
                }
                cout << "Computer is thinking..." << endl;
                this_thread::sleep_for(chrono::milliseconds(700));
                int take = computerMove(matches);
                cout << "Computer removes " << take << "." << endl;
                matches -= take;
            }
            playerTurn = !playerTurn;
        }
        cout << endl;
        again = askYesNo("Would you like to play again? (Y/N): ");
    } while (again == 'Y' || again == 'y');
    return 0;
}
