# The Game of M (a planted copy of m/correct_boxes.py: comments removed, 2-space indentation, quotes swapped, blank lines moved)

def draw(board):

  print('Position:  ' + ''.join(str(i).center(4) for i in range(1, 11)))
  line = '          |'
  for cell in board:
    if cell is None:
      line += '   |'
    else:
      line += ' ' + str(cell) + ' |'
  print(line + '  ')


def multiple(x, y):

  if x == 0 or y == 0:
    return True
  return x % y == 0 or y % x == 0


def ask(prompt):

  try:
    answer = input(prompt)
  except EOFError:
    print()
    print('Bye')
    raise SystemExit(0)
  print()
  return answer.strip()


def get_move(board, used, player):

  while True:
    num_text = ask('Player %d: Your number? ' % player)
    pos_text = ask('Position to insert at? ')
    ok = True
    if not num_text.lstrip('-').isdigit():
      print('Error: number is not a whole number')
      ok = False
    elif not 0 <= int(num_text) <= 9:
      print('Error: number has to be from 0 to 9')
      ok = False
    elif int(num_text) in used:
      print('Error: %s was already used' % num_text)
      ok = False
    if not pos_text.lstrip('-').isdigit():
      print('Error: position is not a whole number')
      ok = False
    elif not 1 <= int(pos_text) <= 10:
      print('Error: position has to be from 1 to 10')
      ok = False
    elif board[int(pos_text) - 1] is not None:
      print('Error: position %s is taken' % pos_text)
      ok = False
    if ok:
      return int(num_text), int(pos_text) - 1
    return None


def main():

  board = [None] * 10
  used = set()
  score = {1: 0, 2: 0}
  player = 1
  moves = 0
  while moves < 10:
    print('\nScore: %d to %d\n' % (score[1], score[2]))
    draw(board)
    print()
    move = get_move(board, used, player)
    if move is None:
      continue
    num, idx = move
    gained = 1
    if idx > 0 and board[idx - 1] is not None and multiple(num, board[idx - 1]):
      gained += 1
    if idx < 9 and board[idx + 1] is not None and multiple(num, board[idx + 1]):
      gained += 1
    score[player] += gained
    board[idx] = num
    used.add(num)
    moves += 1
    player = 2 if player == 1 else 1
  print('\nScore: %d to %d\n' % (score[1], score[2]))
  draw(board)
  print()
  if score[1] == score[2]:
    print('Tie game!')
  else:
    print('Player %d wins the game!' % (1 if score[1] > score[2] else 2))


if __name__ == '__main__':
  main()
