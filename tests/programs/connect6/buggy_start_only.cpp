// BUG: prints the empty board and Black's first prompt, reads the move and stops: no
// stone is ever placed.
// TARGET: credit once (issue 20) — must earn at most 5 % of connect6's case points
// (tests/fairness.rs).
#include <iostream>
#include <string>
using namespace std;

const int N = 19;

int main() {
    cout << "  ";
    for (int c = 0; c < N; c++) cout << ' ' << char('A' + c);
    cout << '\n';
    for (int r = 0; r < N; r++) {
        cout << (r < 10 ? " " : "") << r;
        for (int c = 0; c < N; c++) cout << " .";
        cout << '\n';
    }
    cout << "Black, enter your move: ";
    string move;
    getline(cin, move);
    return 0;
}
