/*
 * Connect6 (N*N board, N = 19)
 * Reads moves as whitespace-separated tokens (cin >> move). Prints the board only after a
 * valid move (not before the first one), with padded cells and trailing spaces.
 * At end of input cin >> fails, the old move is still in the variable, and the program
 * keeps printing "Invalid Enter again!" forever (like many submissions).
 */
#include <iostream>
#include <iomanip>
#include <string>

using namespace std;

const int N = 19;

// Empties every cell of the board.
void clearBoard(char b[N][N])
{
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j)
            b[i][j] = '.';
}

// Prints the board: column letters on top, row numbers on the left.
void show(char b[N][N])
{
    cout << "\n    ";
    for (int j = 0; j < N; ++j)
        cout << " " << char('A' + j) << " ";
    cout << "\n";
    for (int i = 0; i < N; ++i) {
        cout << setw(3) << i << " ";
        for (int j = 0; j < N; ++j)
            cout << " " << b[i][j] << " ";
        cout << " \n";
    }
    cout << "\n";
}

// Parses a move such as "H14" into (r, c); true when it is on the board and empty.
bool valid(char b[N][N], const string& s, int& r, int& c)
{
    if (s.length() < 2) return false;
    if (s[0] < 'A' || s[0] > 'A' + N - 1) return false;
    string digits = s.substr(1);
    for (char ch : digits)
        if (ch < '0' || ch > '9') return false;
    if (digits.length() > 3) return false;
    int n = stoi(digits);
    if (n < 0 || n > N - 1) return false;
    r = n;
    c = s[0] - 'A';
    return b[r][c] == '.';
}

// Counts the stones of the same colour from (r, c) in direction (dr, dc).
int lineLength(char b[N][N], int r, int c, int dr, int dc)
{
    char p = b[r][c];
    int len = 1;
    for (int k = 1; k < N; ++k) {
        int rr = r + k * dr, cc = c + k * dc;
        if (rr < 0 || rr >= N || cc < 0 || cc >= N || b[rr][cc] != p) break;
        ++len;
    }
    for (int k = 1; k < N; ++k) {
        int rr = r - k * dr, cc = c - k * dc;
        if (rr < 0 || rr >= N || cc < 0 || cc >= N || b[rr][cc] != p) break;
        ++len;
    }
    return len;
}

bool wins(char b[N][N], int r, int c)
{
    return lineLength(b, r, c, 0, 1) >= 6 || lineLength(b, r, c, 1, 0) >= 6
        || lineLength(b, r, c, 1, 1) >= 6 || lineLength(b, r, c, -1, 1) >= 6;
}

int main()
{
    char board[N][N];
    clearBoard(board);
    int placed = 0;
    string move;
    // turn 0: Black places one piece; afterwards each turn places two
    for (int turn = 0;; ++turn) {
        bool black = (turn % 2 == 0);
        int pieces = (turn == 0) ? 1 : 2;
        for (int k = 0; k < pieces; ++k) {
            cout << (black ? "Black" : "White") << " (" << (black ? 'B' : 'W') << ") move " << (k + 1)
                 << " - enter column and row (e.g. H14):";
            int r = 0, c = 0;
            cin >> move;
            while (!valid(board, move, r, c)) {
                cout << "Invalid Enter again!" << endl;
                cin >> move;
            }
            board[r][c] = black ? 'B' : 'W';
            ++placed;
            show(board);
            if (wins(board, r, c)) {
                cout << "Congratulations, " << (black ? "Black" : "White") << " wins!" << endl;
                return 0;
            }
            if (placed == N * N) {
                cout << "The board is full. Draw!" << endl;
                return 0;
            }
        }
    }
}
