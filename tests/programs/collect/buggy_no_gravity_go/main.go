// BUG: removed cells stay blank: the numbers above never fall (applyGravity is never called).
// Programming Assignment 3 - number board collect game, in Go. usage: go run . input.txt
package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Println("usage: collect input.txt")
		os.Exit(2)
	}
	board, err := readBoard(os.Args[1])
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	in := bufio.NewReader(os.Stdin)
	score := 0
	printBoard(board)
	printScore(score)
	for !gameOver(board) {
		fmt.Print("Please enter a row and a column number: ")
		line, err := in.ReadString('\n')
		if err != nil && line == "" {
			os.Exit(1)
		}
		parts := strings.Fields(line)
		row, col := 0, 0
		if len(parts) == 2 {
			r, e1 := strconv.Atoi(parts[0])
			c, e2 := strconv.Atoi(parts[1])
			if e1 == nil && e2 == nil {
				row, col = r, c
			}
		}
		if row < 1 || col < 1 || row > len(board) || col > len(board[0]) {
			fmt.Print("\nPlease enter a correct size!\n\n")
			continue
		}
		row--
		col--
		var group [][2]int
		if board[row][col] != empty {
			group = findGroup(board, row, col)
		}
		if len(group) < 2 {
			fmt.Print("\nNo movement happened try again\n")
			printBoard(board)
			printScore(score)
			continue
		}
		score += board[row][col] * len(group)
		for _, cell := range group {
			board[cell[0]][cell[1]] = empty
		}
		printBoard(board)
		printScore(score)
	}
	fmt.Print("\nGame over\n")
}
