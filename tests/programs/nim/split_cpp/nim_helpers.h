// Nim helpers: reading answers and the computer's strategy (CS 135 Assignment 4).
#ifndef NIM_HELPERS_H
#define NIM_HELPERS_H

#include <string>

// Prints the matches in groups of five, a space after each full group, then a newline.
void printMatches(int matches);
// Asks until the answer is Y, y, N or n; returns it. Exits at end of input.
char askYesNo(const std::string& question);
// Asks until the answer is 1, 2 or 3 alone on its line; returns it. Exits at end of input.
int askRemove();
// How many matches the computer takes (leaving a multiple of four plus one when it can).
int computerMove(int matches);

#endif
