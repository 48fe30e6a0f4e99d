// Connect6 - Computer Principles and C++ Programming
// Moves are read as tokens (cin >> in a helper), a struct per concept (Move, Turn), the
// length of a line counted by recursion, loops as `while (true)` with `break`.
// Board printed before every prompt; ends quietly at end of input.
#include <iostream>
#include <string>

using namespace std;

const int N = 19;          // the board is N x N: change only this
const char EMPTY = '.';
const int TO_WIN = 6;      // six or more in a row wins

// a square on the board
struct Move {
    int row;
    int col;
};

// whose turn it is and how many stones they still place this turn
struct Turn {
    char stone;
    int left;
};

// clears the board (array parameter)
void clearBoard(char board[][N])
{
    for (int r = 0; r < N; r++)
        for (int c = 0; c < N; c++)
            board[r][c] = EMPTY;
}

// prints the board with the column letters on top and the row numbers on the left
void printBoard(const char board[][N])
{
    cout << "  ";
    for (int c = 0; c < N; c++) cout << " " << char('A' + c);
    cout << "\n";
    for (int r = 0; r < N; r++) {
        cout << (r < 10 ? " " : "") << r;
        for (int c = 0; c < N; c++) cout << " " << board[r][c];
        cout << "\n";
    }
}

// the next word typed, or false at the end of the input
bool nextWord(string& word)
{
    return static_cast<bool>(cin >> word);
}

// reads "H14"-style text into a move on an empty square
bool readMove(const string& text, const char board[][N], Move& move)
{
    if (text.size() < 2 || text[0] < 'A' || text[0] >= 'A' + N) return false;
    int row = 0;
    for (size_t i = 1; i < text.size(); i++) {
        if (text[i] < '0' || text[i] > '9' || i > 2) return false;
        row = row * 10 + (text[i] - '0');
    }
    if (row >= N) return false;
    move.row = row;
    move.col = text[0] - 'A';
    return board[move.row][move.col] == EMPTY;
}

// stones of colour `stone` in a row from (r, c) going (dr, dc), counted recursively
int run(const char board[][N], int r, int c, int dr, int dc, char stone)
{
    if (r < 0 || r >= N || c < 0 || c >= N || board[r][c] != stone) return 0;
    return 1 + run(board, r + dr, c + dc, dr, dc, stone);
}

// whether the stone just placed at `move` makes six or more in a row
bool wins(const char board[][N], Move move)
{
    const int directions[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    char stone = board[move.row][move.col];
    for (int d = 0; d < 4; d++) {
        int dr = directions[d][0], dc = directions[d][1];
        int length = run(board, move.row, move.col, dr, dc, stone)
                   + run(board, move.row - dr, move.col - dc, -dr, -dc, stone);
        if (length >= TO_WIN) return true;
    }
    return false;
}

// whether no empty square is left
bool boardFull(const char board[][N])
{
    for (int r = 0; r < N; r++)
        for (int c = 0; c < N; c++)
            if (board[r][c] == EMPTY) return false;
    return true;
}

int main()
{
    char board[N][N];
    clearBoard(board);
    Turn turn = {'B', 1};  // Black places one stone first
    printBoard(board);
    while (true) {
        cout << (turn.stone == 'B' ? "Black" : "White") << ", enter your move: ";
        Move move;
        while (true) {
            string word;
            if (!nextWord(word)) return 0;
            if (readMove(word, board, move)) break;
            cout << "Invalid Enter again!\n";
        }
        board[move.row][move.col] = turn.stone;
        printBoard(board);
        if (wins(board, move)) {
            cout << (turn.stone == 'B' ? "Black" : "White") << " wins!\n";
            return 0;
        }
        if (boardFull(board)) {
            cout << "Draw!\n";
            return 0;
        }
        if (--turn.left == 0) {
            turn.stone = turn.stone == 'B' ? 'W' : 'B';
            turn.left = 2;
        }
    }
}
