/*
 * Nim (CS 135 Assignment 4)
 * Uses fast I/O: std::ios::sync_with_stdio(false) and cin.tie(nullptr), so nothing is
 * flushed before reading input; all output appears when the program exits.
 * Headers have a leading "\n" instead of a trailing one. Reads tokens; stops at end of input.
 */
#include <iostream>
#include <string>
#include <cstdlib>

using namespace std;

static string matchString(int count)
{
    string s;
    int full = count / 5;
    for (int g = 0; g < full; ++g)
        s += "||||| ";
    s += string(count % 5, '|');
    return s;
}

static string nextToken()
{
    string tok;
    if (!(cin >> tok)) {
        cout << "\n";
        cout.flush();
        exit(0);
    }
    return tok;
}

static bool yesNo(const char* prompt)
{
    do {
        cout << "\n" << prompt;
        string t = nextToken();
        if (t == "Y" || t == "y") return true;
        if (t == "N" || t == "n") return false;
        cout << "\nPlease, answer Y or N.";
    } while (true);
}

static bool isInteger(const string& t)
{
    size_t i = 0;
    if (t.empty()) return false;
    if (t[0] == '-' || t[0] == '+') i = 1;
    if (i == t.size()) return false;
    for (; i < t.size(); ++i)
        if (t[i] < '0' || t[i] > '9') return false;
    return true;
}

static int playerTakes()
{
    do {
        cout << "\nRemove (1 - 3): ";
        string t = nextToken();
        if (!isInteger(t) || t.size() > 9) {
            cout << "\nPlease, type 1, 2, or 3 as your response.";
            continue;
        }
        int n = atoi(t.c_str());
        if (n < 1) {
            cout << "\nMust remove at least one match.";
        } else if (n > 3) {
            cout << "\nCannot remove more than three matches.";
        } else {
            return n;
        }
    } while (true);
}

static const int TAKE[4] = {3, 1, 1, 2};

int main()
{
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);

    cout << "The game of Nim. The player to remove the last match loses.";
    bool again = true;
    while (again) {
        bool playerNow = yesNo("Would you like to go first? (Y/N): ");
        int left = 21;
        for (;;) {
            cout << "\n" << (playerNow ? "Player" : "Computer") << " Turn - Matches: "
                 << matchString(left);
            if (left == 1) {
                cout << "\nGame Over - " << (playerNow ? "Computer" : "Player") << " wins.";
                break;
            }
            int n;
            if (playerNow) {
                n = playerTakes();
            } else {
                n = TAKE[left % 4];
                cout << "\nComputer removes " << n << ".";
            }
            left -= n;
            playerNow = !playerNow;
        }
        again = yesNo("Would you like to play again? (Y/N): ");
    }
    cout << "\n";
    return 0;
}
