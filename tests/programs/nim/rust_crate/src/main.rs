// CS 135 Assignment 4 - Nim, as a Cargo crate: the strategy lives in strategy.rs.
// Answers are read a line at a time; exits quietly at end of input.
use std::io::{self, BufRead, Write};
use std::process;

mod strategy;
use strategy::computer_move;

fn read_line(input: &mut impl BufRead) -> String {
    let mut line = String::new();
    match input.read_line(&mut line) {
        Ok(0) | Err(_) => process::exit(0),
        Ok(_) => line.trim().to_string(),
    }
}

fn ask(input: &mut impl BufRead, question: &str) -> String {
    print!("{question}");
    io::stdout().flush().expect("stdout");
    read_line(input)
}

fn ask_yes_no(input: &mut impl BufRead, question: &str) -> bool {
    loop {
        match ask(input, question).as_str() {
            "Y" | "y" => return true,
            "N" | "n" => return false,
            _ => println!("Please, answer Y or N."),
        }
    }
}

fn ask_remove(input: &mut impl BufRead) -> u32 {
    loop {
        match ask(input, "Remove (1 - 3): ").parse::<i64>() {
            Err(_) => println!("Please, type 1, 2, or 3 as your response."),
            Ok(n) if n < 1 => println!("Must remove at least one match."),
            Ok(n) if n > 3 => println!("Cannot remove more than three matches."),
            Ok(n) => return n as u32,
        }
    }
}

fn matches_text(count: u32) -> String {
    (1..=count)
        .map(|i| if i % 5 == 0 { "| " } else { "|" })
        .collect()
}

fn main() {
    let stdin = io::stdin();
    let mut input = stdin.lock();
    println!("The game of Nim. The player to remove the last match loses.");
    loop {
        let mut player_turn = ask_yes_no(&mut input, "Would you like to go first? (Y/N): ");
        let mut matches = 21;
        loop {
            let who = if player_turn { "Player" } else { "Computer" };
            println!("{who} Turn - Matches: {}", matches_text(matches));
            if matches == 1 {
                if player_turn {
                    println!("Game Over - Computer wins.");
                } else {
                    println!("Game Over - Player wins.");
                }
                break;
            }
            if player_turn {
                matches -= ask_remove(&mut input);
            } else {
                let take = computer_move(matches);
                println!("Computer removes {take}.");
                matches -= take;
            }
            player_turn = !player_turn;
        }
        if !ask_yes_no(&mut input, "Would you like to play again? (Y/N): ") {
            break;
        }
    }
}
