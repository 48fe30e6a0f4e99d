// The student's own check of the computer's strategy: a second main, not part of the game.
#include <iostream>

#include "../nim_helpers.h"

int main()
{
    int failures = 0;
    for (int matches = 2; matches <= 21; matches++) {
        int left = matches - computerMove(matches);
        if (left % 4 != 1 && matches % 4 != 1) failures++;
    }
    std::cout << (failures == 0 ? "ok" : "FAILED") << std::endl;
    return failures;
}
