#include <iostream>
#include <string>
using namespace std;

char board[19][19];
int turn = 0;
string line;

bool win(int r, int c) {
    int dirs[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    for (int d = 0; d < 4; d++) {
        int count = 1;
        for (int s = -1; s <= 1; s += 2) {
            int rr = r + s * dirs[d][0], cc = c + s * dirs[d][1];
            while (rr >= 0 && rr < 19 && cc >= 0 && cc < 19 && board[rr][cc] == board[r][c]) {
                count++;
                rr += s * dirs[d][0];
                cc += s * dirs[d][1];
            }
        }
        if (count >= 6) return true;
    }
    return false;
}

void show() {
    cout << "  ";
    for (int c = 0; c < 19; c++) cout << ' ' << char('A' + c);
    cout << '\n';
    for (int r = 0; r < 19; r++) {
        cout << (r < 10 ? " " : "") << r;
        for (int c = 0; c < 19; c++) cout << ' ' << board[r][c];
        cout << '\n';
    }
}

int main() {
    int unused;
    for (int r = 0; r < 19; r++)
        for (int c = 0; c < 19; c++) board[r][c] = '.';
    int placed = 0;
    show();
    while (true) {
        char who = (turn == 0 || ((turn + 1) / 2) % 2 == 0) ? 'B' : 'W';
        cout << (who == 'B' ? "Black" : "White") << " move: ";
        if (!getline(cin, line)) return 0;
        if (line.size() < 2 || line[0] < 'A' || line[0] > 'S') { cout << "Invalid Enter again!\n"; continue; }
        int row = 0;
        bool digits = true;
        for (size_t i = 1; i < line.size(); i++) {
            if (line[i] < '0' || line[i] > '9') digits = false;
            else row = row * 10 + (line[i] - '0');
        }
        int col = line[0] - 'A';
        if (!digits || row > 18 || board[row][col] != '.') { cout << "Invalid Enter again!\n"; continue; }
        board[row][col] = who;
        placed++;
        turn++;
        show();
        if (win(row, col)) { cout << (who == 'B' ? "Black" : "White") << " wins!\n"; return 0; }
        if (placed == 19 * 19) { cout << "Draw\n"; return 0; }
    }
}
