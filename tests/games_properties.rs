//! Property tests for the five reference games: random streams of valid and invalid lines
//! never panic, and a bounded tail of valid moves always brings the game to its end.

use std::path::Path;

use grade::assignments::collect::game as collect;
use grade::assignments::silver_dollar::game::{parse_strip, Start};
use grade::games::{record, Setup};
use proptest::prelude::*;

/// A line that is often meaningful to some game and often garbage.
fn any_line() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just("y".to_string()),
        Just("N".to_string()),
        Just("yes".to_string()),
        (0u32..12).prop_map(|n| n.to_string()),
        (0u32..12, 0u32..12).prop_map(|(a, b)| format!("{a} {b}")),
        (0u8..8, 0u32..9).prop_map(|(c, r)| format!("{}{r}", char::from(b'A' + c))),
        "[ -~]{0,8}",
        "\\PC{0,6}",
    ]
}

fn lines(max: usize) -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(any_line(), 0..max)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn nim_always_ends(prefix in lines(40)) {
        // Each pair of tail lines is at least one valid answer to whatever is being asked,
        // and a round needs at most 11 player moves.
        let mut input = prefix;
        for _ in 0..40 {
            input.push("1".into());
            input.push("n".into());
        }
        let recording = record(&Setup::new(grade::assignments::nim::game::NewGame::HANDOUT), &input).expect("the reference plays");
        let text = recording.transcript.terminal_text();
        prop_assert!(text.contains("Game Over - "));
        prop_assert!(!recording.wanted_more_input, "{}", text);
    }

    #[test]
    fn m_always_ends(pairs in prop::collection::vec((any_line(), any_line()), 0..20)) {
        // Every turn reads exactly two lines, so a tail of all (number, position) pairs
        // stays aligned and fills the board.
        let mut input: Vec<String> = pairs.into_iter().flat_map(|(a, b)| [a, b]).collect();
        for n in 0..10 {
            for p in 1..=10 {
                input.push(n.to_string());
                input.push(p.to_string());
            }
        }
        let recording = record(&Setup::new(grade::assignments::m::game::NewGame), &input).expect("the reference plays");
        let text = recording.transcript.terminal_text();
        prop_assert!(
            text.ends_with("Player 1 wins!\n")
                || text.ends_with("Player 2 wins!\n")
                || text.ends_with("It's a tie!\n"),
            "{}", text
        );
        prop_assert!(!recording.wanted_more_input);
    }

    #[test]
    fn connect6_always_ends(size in 1usize..=7, prefix in lines(40)) {
        // The tail names every cell once: occupied ones are rejected, the rest get filled.
        let mut input = prefix;
        for r in 0..size {
            for c in 0..size {
                input.push(format!("{}{r}", char::from(b'A' + c as u8)));
            }
        }
        let recording = record(&Setup::new(grade::assignments::connect6::game::BoardSize(size)), &input).expect("the reference plays");
        let text = recording.transcript.terminal_text();
        prop_assert!(
            text.ends_with("Black wins!\n")
                || text.ends_with("White wins!\n")
                || text.ends_with("Draw game!\n"),
            "{}", text
        );
        prop_assert!(!recording.wanted_more_input);
        if size < 6 {
            prop_assert!(text.ends_with("Draw game!\n"));
        }
    }

    #[test]
    fn collect_always_ends(
        rows in prop::collection::vec(prop::collection::vec(0u8..4, 4), 1..5),
        prefix in lines(30),
    ) {
        let text: String = rows
            .iter()
            .map(|r| r.iter().map(u8::to_string).collect::<Vec<_>>().join(" ") + "\n")
            .collect();
        let board = collect::Board::parse(Path::new("p.txt"), &text).expect("valid board");
        // A full pass over every coordinate makes at least one move unless the game is over;
        // each move removes at least two of at most 16 cells.
        let mut input = prefix;
        for _ in 0..9 {
            for r in 1..=rows.len() {
                for c in 1..=4 {
                    input.push(format!("{r} {c}"));
                }
            }
        }
        let recording = record(&Setup::new(board), &input).expect("the reference plays");
        let transcript = recording.transcript.terminal_text();
        prop_assert!(transcript.ends_with("Game over\n"), "{}", transcript);
        prop_assert!(!recording.wanted_more_input);
    }

    #[test]
    fn silver_dollar_always_ends(
        seed in any::<u64>(),
        coins in 1usize..=4,
        prefix in lines(30),
    ) {
        // A pass of "c 1" for every coin makes at least one move unless the game is over;
        // each of the at most 4 coins can travel at most 23 squares.
        let mut input = vec![coins.to_string()];
        input.extend(prefix);
        for _ in 0..100 {
            for c in 0..coins {
                input.push(format!("{c} 1"));
            }
        }
        let recording = record(&Setup::new(Start::Seeded(seed)), &input).expect("the reference plays");
        let text = recording.transcript.terminal_text();
        prop_assert!(
            text.ends_with("Player 1 wins!\n") || text.ends_with("Player 2 wins!\n"),
            "{}", text
        );
        prop_assert!(!recording.wanted_more_input);
    }

    #[test]
    fn silver_dollar_given_strip_never_panics(prefix in lines(30), answer in any_line()) {
        let strip = parse_strip("_ _ 0 _ 1 _ _ _ 2").expect("strip");
        let mut input = vec![answer];
        input.extend(prefix);
        let _ = record(&Setup::new(Start::Strip(strip)), &input);
    }

    #[test]
    fn board_files_never_panic(text in "[0-9 \n\r\tx]{0,40}") {
        let _ = collect::Board::parse(Path::new("b.txt"), &text);
    }
}
