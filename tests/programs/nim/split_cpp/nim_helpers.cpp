// Nim helpers (CS 135 Assignment 4): input validation and the computer's strategy.
#include "nim_helpers.h"

#include <cstdlib>
#include <iostream>
#include <sstream>

using namespace std;

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

static string readLine()
{
    string line;
    if (!getline(cin, line)) {
        exit(0);
    }
    size_t b = line.find_first_not_of(" \t\r");
    size_t e = line.find_last_not_of(" \t\r");
    if (b == string::npos) return "";
    return line.substr(b, e - b + 1);
}

char askYesNo(const string& question)
{
    do {
        cout << question;
        string answer = readLine();
        if (answer == "Y" || answer == "y" || answer == "N" || answer == "n") {
            return answer[0];
        }
        cout << "Please, answer Y or N." << endl;
    } while (true);
}

int askRemove()
{
    do {
        cout << "Remove (1 - 3): ";
        stringstream ss(readLine());
        int amount = 0;
        string rest;
        if (!(ss >> amount) || (ss >> rest)) {
            cout << "Please, type 1, 2, or 3 as your response." << endl;
        } else if (amount < 1) {
            cout << "Must remove at least one match." << endl;
        } else if (amount > 3) {
            cout << "Cannot remove more than three matches." << endl;
        } else {
            return amount;
        }
    } while (true);
}

int computerMove(int matches)
{
    switch (matches % 4) {
    case 0: return 3;
    case 3: return 2;
    default: return 1;
    }
}
