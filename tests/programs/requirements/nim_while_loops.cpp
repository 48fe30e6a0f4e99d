// Nim against the computer, written with while loops only.
#include <iostream>
using namespace std;

int main() {
    cout << "The game of Nim. The player to remove the last match loses.\n";
    char again = 'Y';
    while (again == 'Y' || again == 'y') {
        char first = ' ';
        cout << "Would you like to go first? (Y/N): ";
        cin >> first;
        while (first != 'Y' && first != 'y' && first != 'N' && first != 'n') {
            cout << "Please, answer Y or N.\n";
            cout << "Would you like to go first? (Y/N): ";
            cin >> first;
        }
        int matches = 21;
        bool player = first == 'Y' || first == 'y';
        while (matches > 1) {
            cout << (player ? "Player" : "Computer") << " Turn - Matches: ";
            int i = 1;
            while (i <= matches) {
                cout << "|";
                if (i % 5 == 0) cout << " ";
                i++;
            }
            cout << "\n";
            int take = 0;
            if (player) {
                cout << "Remove (1 - 3): ";
                while (!(cin >> take) || take < 1 || take > 3) {
                    if (cin.fail()) { cin.clear(); cin.ignore(1000, '\n'); cout << "Please, type 1, 2, or 3 as your response.\n"; }
                    else if (take < 1) cout << "Must remove at least one match.\n";
                    else cout << "Cannot remove more than three matches.\n";
                    cout << "Remove (1 - 3): ";
                }
            } else {
                int table[4] = {3, 1, 1, 2};
                take = table[matches % 4];
                cout << "Computer removes " << take << ".\n";
            }
            matches -= take;
            player = !player;
        }
        cout << (player ? "Player" : "Computer") << " Turn - Matches: |\n";
        cout << "Game Over - " << (player ? "Computer" : "Player") << " wins.\n";
        cout << "Would you like to play again? (Y/N): ";
        cin >> again;
    }
    return 0;
}
