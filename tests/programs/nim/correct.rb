# CS 135 Assignment 4 - Nim, in Ruby: gets a line at a time, prompts flushed before each read.
# Exits quietly at end of input.
$stdout.sync = true

def read_line
  line = $stdin.gets
  exit 0 if line.nil?
  line.strip
end

def ask_yes_no(question)
  loop do
    print question
    answer = read_line
    return answer.upcase == "Y" if %w[Y y N n].include?(answer)
    puts "Please, answer Y or N."
  end
end

def ask_remove
  loop do
    print "Remove (1 - 3): "
    answer = read_line
    if answer !~ /\A-?\d+\z/
      puts "Please, type 1, 2, or 3 as your response."
    elsif answer.to_i < 1
      puts "Must remove at least one match."
    elsif answer.to_i > 3
      puts "Cannot remove more than three matches."
    else
      return answer.to_i
    end
  end
end

def matches_text(count)
  (1..count).map { |i| i % 5 == 0 ? "| " : "|" }.join
end

def computer_move(matches)
  { 0 => 3, 3 => 2 }.fetch(matches % 4, 1)
end

puts "The game of Nim. The player to remove the last match loses."
loop do
  player_turn = ask_yes_no("Would you like to go first? (Y/N): ")
  matches = 21
  loop do
    puts "#{player_turn ? 'Player' : 'Computer'} Turn - Matches: #{matches_text(matches)}"
    if matches == 1
      puts(player_turn ? "Game Over - Computer wins." : "Game Over - Player wins.")
      break
    end
    if player_turn
      matches -= ask_remove
    else
      take = computer_move(matches)
      puts "Computer removes #{take}."
      matches -= take
    end
    player_turn = !player_turn
  end
  break unless ask_yes_no("Would you like to play again? (Y/N): ")
end
