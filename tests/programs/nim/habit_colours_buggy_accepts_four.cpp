// BUG: the range check is off by one: removing 4 matches is accepted
// TARGET: "Cannot remove more than three matches." for input 4 (error-more-than-three)
// CS 135 Assignment 4 - Nim
// Written in VS Code with the colours from a terminal tutorial: the matches in yellow, whose
// turn it is in cyan, the computer's number in bold red, error messages in red, the result
// in bold green (ANSI escape codes, reset after each piece).
// Reads every answer as a whole line with getline. Keeps the console window open at the end
// with "Press Enter to exit..." (one more readLine). Exits quietly at end of input.
#include <iostream>
#include <string>
#include <sstream>
#include <cstdlib>

using namespace std;

// ANSI colour codes
const string RESET = "\033[0m";
const string BOLD = "\033[1m";
const string RED = "\033[31m";
const string GREEN = "\033[32m";
const string YELLOW = "\033[33m";
const string CYAN = "\033[36m";

// print the matches in groups of five, a space after each full group
void printMatches(int matches)
{
    cout << YELLOW;
    for (int i = 1; i <= matches; i++) {
        cout << "|";
        if (i % 5 == 0) {
            cout << " ";
        }
    }
    cout << RESET << endl;
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

void error(const string& message)
{
    cout << RED << message << RESET << endl;
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
        error("Please, answer Y or N.");
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
            error("Please, type 1, 2, or 3 as your response.");
        } else if (amount < 1) {
            error("Must remove at least one match.");
        } else if (amount > 4) {
            error("Cannot remove more than three matches.");
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
    cout << BOLD << "The game of Nim. The player to remove the last match loses." << RESET << endl;
    char again;
    do {
        cout << endl;
        char first = askYesNo("Would you like to go first? (Y/N): ");
        bool playerTurn = (first == 'Y' || first == 'y');
        int matches = 21;
        while (true) {
            cout << endl;
            if (playerTurn) {
                cout << CYAN << "Player Turn" << RESET << " - Matches: ";
                printMatches(matches);
                if (matches == 1) {
                    cout << BOLD << GREEN << "Game Over - Computer wins." << RESET << endl;
                    break;
                }
                matches -= askRemove();
            } else {
                cout << CYAN << "Computer Turn" << RESET << " - Matches: ";
                printMatches(matches);
                if (matches == 1) {
                    cout << BOLD << GREEN << "Game Over - Player wins." << RESET << endl;
                    break;
                }
                int take = computerMove(matches);
                cout << "Computer removes " << BOLD << RED << take << RESET << "." << endl;
                matches -= take;
            }
            playerTurn = !playerTurn;
        }
        cout << endl;
        again = askYesNo("Would you like to play again? (Y/N): ");
    } while (again == 'Y' || again == 'y');
    cout << endl << "Thanks for playing! Press Enter to exit...";
    readLine(); // keep the console window open
    return 0;
}
