// Connect6 - Computer Principles and C++ Programming
// correct_getline.cpp with ONE bug for the sanitizer pass: the win check reads one column past
// the right edge (c <= N); the read lands on the next row's first cell, so the output agrees.
#include <iostream>
#include <string>
#include <cctype>

using namespace std;

const int N = 19;
const char EMPTY = '.';

// print the board with column letters on top and row numbers on the left
void printBoard(const char board[][N])
{
    cout << "   ";
    for (int c = 0; c < N; c++) {
        cout << " " << char('A' + c);
    }
    cout << endl;
    for (int r = 0; r < N; r++) {
        if (r < 10) cout << " ";
        cout << r << " ";
        for (int c = 0; c < N; c++) {
            cout << " " << board[r][c];
        }
        cout << endl;
    }
}

// parse a move like "H14"; returns false if it is not a valid empty position
bool parseMove(const string& text, const char board[][N], int& row, int& col)
{
    if (text.size() < 2 || text.size() > 4) return false;
    char letter = text[0];
    if (letter < 'A' || letter >= 'A' + N) return false;
    int value = 0;
    for (size_t i = 1; i < text.size(); i++) {
        if (!isdigit((unsigned char)text[i])) return false;
        value = value * 10 + (text[i] - '0');
    }
    if (value >= N) return false;
    row = value;
    col = letter - 'A';
    return board[row][col] == EMPTY;
}

int countDirection(const char board[][N], int row, int col, int dr, int dc, char piece)
{
    int count = 0;
    int r = row + dr, c = col + dc;
    while (r >= 0 && r < N && c >= 0 && c <= N && board[r][c] == piece) { // BUG: c <= N reads one past the last column
        count++;
        r += dr;
        c += dc;
    }
    return count;
}

bool isWin(const char board[][N], int row, int col)
{
    char piece = board[row][col];
    const int dirs[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    for (int d = 0; d < 4; d++) {
        int total = 1 + countDirection(board, row, col, dirs[d][0], dirs[d][1], piece)
                      + countDirection(board, row, col, -dirs[d][0], -dirs[d][1], piece);
        if (total >= 6) return true;
    }
    return false;
}

bool isFull(const char board[][N])
{
    for (int r = 0; r < N; r++)
        for (int c = 0; c < N; c++)
            if (board[r][c] == EMPTY) return false;
    return true;
}

int main()
{
    char board[N][N];
    for (int r = 0; r < N; r++)
        for (int c = 0; c < N; c++)
            board[r][c] = EMPTY;

    char player = 'B';
    int piecesLeft = 1; // black places only one piece in the first turn
    string line;
    printBoard(board);
    while (true) {
        cout << (player == 'B' ? "Player Black" : "Player White") << ", please enter your move: ";
        int row, col;
        while (true) {
            if (!getline(cin, line)) return 0;
            if (!line.empty() && line[line.size() - 1] == '\r') line.erase(line.size() - 1);
            if (parseMove(line, board, row, col)) break;
            cout << "Invalid Enter again!" << endl;
        }
        board[row][col] = player;
        printBoard(board);
        if (isWin(board, row, col)) {
            cout << (player == 'B' ? "Black" : "White") << " wins the game!" << endl;
            return 0;
        }
        if (isFull(board)) {
            cout << "It's a draw!" << endl;
            return 0;
        }
        piecesLeft--;
        if (piecesLeft == 0) {
            player = (player == 'B') ? 'W' : 'B';
            piecesLeft = 2;
        }
    }
}
