// BUG: prints the title and the first question, reads the answer and stops: no game is
// ever played.
// TARGET: credit once (issue 20) — must earn at most 5 % of nim's case points
// (tests/fairness.rs).
#include <iostream>
#include <string>
using namespace std;

int main() {
    cout << "The game of Nim. The player to remove the last match loses.\n\n";
    string answer;
    do {
        cout << "Would you like to go first? (Y/N): ";
    } while (false);
    getline(cin, answer);
    return 0;
}
