// BUG: prints the title, asks who goes first, shows the first matches and then asks
// "Remove (1 - 3): " again for every answer without ever removing a match: no game is
// played.
// TARGET: credit once (issue 20) — the first matches count once, not in every game case:
// at most 5 % of nim's case points (tests/fairness.rs).
#include <iostream>
#include <string>
using namespace std;

int main() {
    cout << "The game of Nim. The player to remove the last match loses.\n\n";
    string answer;
    do {
        cout << "Would you like to go first? (Y/N): ";
        if (!getline(cin, answer)) return 0;
    } while (answer != "y" && answer != "Y" && answer != "n" && answer != "N");
    cout << "\n" << (answer == "y" || answer == "Y" ? "Player" : "Computer")
         << " Turn - Matches: ||||| ||||| ||||| ||||| |\n";
    do {
        cout << "Remove (1 - 3): ";
    } while (getline(cin, answer));
    return 0;
}
