package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// empty marks a cell whose number was collected.
const empty = -1

func readBoard(name string) ([][]int, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var board [][]int
	for _, line := range strings.Split(string(data), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		row := make([]int, len(fields))
		for i, f := range fields {
			if row[i], err = strconv.Atoi(f); err != nil {
				return nil, err
			}
		}
		board = append(board, row)
	}
	return board, nil
}

func printBoard(board [][]int) {
	fmt.Println()
	for _, row := range board {
		cells := make([]string, len(row))
		for i, v := range row {
			if v == empty {
				cells[i] = " "
			} else {
				cells[i] = strconv.Itoa(v)
			}
		}
		fmt.Println(strings.TrimRight(strings.Join(cells, " "), " "))
	}
	fmt.Println()
}

func printScore(score int) {
	fmt.Printf("Your score is: %d\n\n", score)
}

// findGroup returns every cell connected to (row, col) left, right, above or below that
// holds the same number.
func findGroup(board [][]int, row, col int) [][2]int {
	value := board[row][col]
	group := [][2]int{{row, col}}
	seen := map[[2]int]bool{{row, col}: true}
	for i := 0; i < len(group); i++ {
		for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			n := [2]int{group[i][0] + d[0], group[i][1] + d[1]}
			if n[0] < 0 || n[0] >= len(board) || n[1] < 0 || n[1] >= len(board[n[0]]) || seen[n] {
				continue
			}
			if board[n[0]][n[1]] == value {
				seen[n] = true
				group = append(group, n)
			}
		}
	}
	return group
}

// applyGravity lets numbers fall into blank cells, removes emptied columns (the rest move
// left) and drops emptied rows at the top.
func applyGravity(board [][]int) [][]int {
	rows, cols := len(board), len(board[0])
	for c := 0; c < cols; c++ {
		var column []int
		for r := 0; r < rows; r++ {
			if board[r][c] != empty {
				column = append(column, board[r][c])
			}
		}
		for r := 0; r < rows; r++ {
			k := r - (rows - len(column))
			if k < 0 {
				board[r][c] = empty
			} else {
				board[r][c] = column[k]
			}
		}
	}
	var keep []int
	for c := 0; c < cols; c++ {
		for r := 0; r < rows; r++ {
			if board[r][c] != empty {
				keep = append(keep, c)
				break
			}
		}
	}
	var out [][]int
	for _, row := range board {
		kept := make([]int, len(keep))
		for i, c := range keep {
			kept[i] = row[c]
		}
		out = append(out, kept)
	}
	for len(out) > 0 && allEmpty(out[0]) {
		out = out[1:]
	}
	return out
}

func allEmpty(row []int) bool {
	for _, v := range row {
		if v != empty {
			return false
		}
	}
	return true
}

// gameOver is true when no two neighbouring cells hold the same number.
func gameOver(board [][]int) bool {
	for r := range board {
		for c, v := range board[r] {
			if v == empty {
				continue
			}
			if c+1 < len(board[r]) && board[r][c+1] == v {
				return false
			}
			if r+1 < len(board) && board[r+1][c] == v {
				return false
			}
		}
	}
	return true
}
