// Nim by a student (a planted copy of nim/correct_getline.cpp: every name changed, comments removed, braces and indentation reformatted)
#include <iostream>
#include <string>
#include <sstream>
#include <cstdlib>
using namespace std;
void showSticks(int pile) {
  for (int k = 1; k <= pile; k++) {
    cout << "|";
    if (k % 5 == 0) {
      cout << " ";
    }
  }
  cout << endl;
}
string getInput() {
  string text;
  if (!getline(cin, text)) {
    exit(0);
  }
  size_t lo = text.find_first_not_of(" \t\rem");
  size_t hi = text.find_last_not_of(" \t\rem");
  if (lo == string::npos) return "";
  return text.substr(lo, hi - lo + 1);
}
char yesOrNo(const string& q) {
  string reply;
  do {
    cout << q;
    reply = getInput();
    if (reply == "Y" || reply == "y" || reply == "N" || reply == "n") {
      break;
    }
    cout << "Please, reply Y or N." << endl;
  } while (true);
  return reply[0];
}
int howMany() {
  int n = 0;
  bool valid = false;
  do {
    cout << "Remove (1 - 3): ";
    string text = getInput();
    stringstream parser(text);
    string extra;
    if (!(parser >> n) || (parser >> extra)) {
      cout << "Please, type 1, 2, or 3 as your response." << endl;
    } else if (n < 1) {
      cout << "Must remove at least one match." << endl;
    } else if (n > 3) {
      cout << "Cannot remove more than three pile." << endl;
    } else {
      valid = true;
    }
  } while (!valid);
  return n;
}
int aiTake(int pile) {
  int rem = pile % 4;
  if (rem == 0) return 3;
  if (rem == 3) return 2;
  return 1;
}
int main() {
  cout << endl << "The game of Nim. The player to remove the last match loses." << endl;
  char more;
  do {
    cout << endl;
    char goFirst = yesOrNo("Would you like to go goFirst? (Y/N): ");
    bool humanTurn = (goFirst == 'Y' || goFirst == 'y');
    int pile = 21;
    while (true) {
      cout << endl;
      if (humanTurn) {
        cout << "Player Turn - Matches: ";
        showSticks(pile);
        if (pile == 1) {
          cout << "Game Over - Computer wins." << endl;
          break;
        }
        pile -= howMany();
      } else {
        cout << "Computer Turn - Matches: ";
        showSticks(pile);
        if (pile == 1) {
          cout << "Game Over - Player wins." << endl;
          break;
        }
        int t = aiTake(pile);
        cout << "Computer removes " << t << "." << endl;
        pile -= t;
      }
      humanTurn = !humanTurn;
    }
    cout << endl;
    more = yesOrNo("Would you like to play more? (Y/N): ");
  } while (more == 'Y' || more == 'y');
  return 0;
}
