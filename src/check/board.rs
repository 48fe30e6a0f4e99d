//! The `board` check: the sequence of boards printed, compared cell by cell, tolerant of how
//! the board is drawn (borders, padding, separators, row and column labels).
//!
//! A board is a block of consecutive lines whose tokens are all cells. Lines made only of
//! border characters (`+---+`, `====`) are skipped inside a block. A line with two or more `|`
//! is read as pipe-separated cells (a blank segment is a blank cell); because the handouts
//! draw pipe-terminated and pipe-started rows, such a line can have several readings, and two
//! rows are equal when some reading of each agrees. Otherwise cells are whitespace-separated
//! tokens, and rows with fewer tokens than the widest row of their board are aligned to it by
//! column position (blank cells drawn as spaces, as in the collect game).

use std::collections::HashMap;

use regex::Regex;

use super::view::View;
use super::Evaluation;
use crate::results::Difference;

/// How to recognise a board of one assignment.
#[derive(Clone, Debug)]
pub struct BoardSpec {
    /// A filled cell token (anchored).
    pub cell: Regex,
    /// A token meaning an empty cell (anchored).
    pub empty: Option<Regex>,
    /// Strip numeric row labels and column-letter header lines.
    pub labels: bool,
    /// The student may skip the reference's first board.
    pub first_optional: bool,
    /// The boards show that a game is being played (see [`crate::check::score`]).
    pub game: bool,
}

/// A cell: [`EMPTY`], or the number [`Cells`] gave its token.
type Cell = u32;

/// The empty cell.
const EMPTY: Cell = 0;

/// The cells of one comparison: every distinct token read gets a small number (equal tokens
/// the same one), and how a token classifies is remembered, so the spec's patterns run once per
/// distinct token and a board holds numbers, not a string per cell.
struct Cells<'s> {
    spec: &'s BoardSpec,
    /// The first [`FIRST_TOKENS`] distinct tokens read, looked up before `known`: a board's
    /// few tokens (its empty cell and marks) come first and recur on every row.
    first: Vec<(Box<str>, Option<Cell>)>,
    /// Every later distinct token.
    known: HashMap<String, Option<Cell>>,
    next: Cell,
    /// A row's tokens (start column, byte range), kept between rows for its room.
    tokens: Vec<(usize, usize, usize)>,
}

/// How many distinct tokens [`Cells`] looks up in a list before its hash map.
const FIRST_TOKENS: usize = 8;

impl<'s> Cells<'s> {
    fn new(spec: &'s BoardSpec) -> Self {
        Cells {
            spec,
            first: Vec::with_capacity(FIRST_TOKENS),
            known: HashMap::new(),
            next: EMPTY + 1,
            tokens: Vec::new(),
        }
    }

    /// The token as a cell, or `None` when it is not one.
    fn classify(&mut self, token: &str) -> Option<Cell> {
        if let Some((_, known)) = self.first.iter().find(|(t, _)| **t == *token) {
            return *known;
        }
        if let Some(known) = self.known.get(token) {
            return *known;
        }
        let cell = if self.spec.empty.as_ref().is_some_and(|e| e.is_match(token)) {
            Some(EMPTY)
        } else if self.spec.cell.is_match(token) {
            self.next += 1;
            Some(self.next - 1)
        } else {
            None
        };
        if self.first.len() < FIRST_TOKENS {
            self.first.push((token.into(), cell));
        } else {
            self.known.insert(token.to_string(), cell);
        }
        cell
    }
}

/// One row of a board: the ways it can be read.
#[derive(Clone, Debug)]
struct Row {
    readings: Vec<Vec<Cell>>,
    /// Token start columns when read from whitespace-separated tokens (for alignment).
    columns: Option<Vec<usize>>,
}

/// One board found in the output.
#[derive(Clone, Debug)]
struct Board {
    rows: Vec<Row>,
    /// Indices of the output lines it was read from.
    first_line: usize,
    last_line: usize,
    offset: usize,
}

fn is_border_char(c: char) -> bool {
    matches!(c, '+' | '-' | '=' | '|' | '*' | '#' | '~') || ('\u{2500}'..='\u{257F}').contains(&c)
}

/// A line made only of border characters and spaces (and at least one border character).
fn is_border_line(line: &str) -> bool {
    line.chars().any(|c| !c.is_whitespace())
        && line.chars().all(|c| c.is_whitespace() || is_border_char(c))
}

/// A header of column letters ("A B C …" or "ABC…"), skipped when labels are on.
fn is_column_header(line: &str) -> bool {
    let mut letters = line.chars().filter(|c| !c.is_whitespace() && *c != '|');
    let mut count = 0;
    letters.all(|c| {
        count += 1;
        c.is_ascii_uppercase() && (c as usize) == ('A' as usize) + count - 1
    }) && count >= 2
}

impl BoardSpec {
    fn is_label(&self, token: &str) -> bool {
        self.labels && !token.is_empty() && token.chars().all(|c| c.is_ascii_digit())
    }

    /// Reads a line as a board row, or `None` when it is not one.
    fn parse_row(&self, line: &str, cells: &mut Cells) -> Option<Row> {
        if line.matches('|').count() >= 2 {
            self.parse_piped(line, cells)
        } else {
            self.parse_spaced(line, cells)
        }
    }

    fn parse_piped(&self, line: &str, known: &mut Cells) -> Option<Row> {
        let segments: Vec<&str> = line.split('|').collect();
        let (lead, rest) = segments.split_first()?;
        let (trail, inner) = rest.split_last()?;
        // A whole row inside one box ("| 1 0     8 |", "| 00 . . B |", "00 | . . B |"): read
        // as a spaced row, so blank cells keep their columns and a label inside is a label.
        let outside = |s: &str| s.trim().is_empty() || self.is_label(s.trim());
        if let [row] = inner {
            if outside(lead) && outside(trail) {
                if let Some(row) = self.parse_spaced(row, known) {
                    return Some(row);
                }
            }
        }
        let mut cells = Vec::new();
        for segment in inner {
            let token = segment.trim();
            if token.is_empty() {
                cells.push(EMPTY);
            } else if let Some(cell) = known.classify(token) {
                cells.push(cell);
            } else {
                // A whole row inside one pair of bars ("00 | . . B |"): its tokens, or the
                // characters of a token written without separators, are the cells.
                for part in token.split_whitespace() {
                    match known.classify(part) {
                        Some(cell) => cells.push(cell),
                        None => {
                            let mut buf = [0u8; 4];
                            for c in part.chars() {
                                cells.push(known.classify(c.encode_utf8(&mut buf))?);
                            }
                        }
                    }
                }
            }
        }
        let mut edge = |segment: &str| -> Result<Option<Cell>, ()> {
            let token = segment.trim();
            if token.is_empty() || self.is_label(token) {
                Ok(None)
            } else {
                known.classify(token).map(Some).ok_or(())
            }
        };
        let lead_cell = edge(lead).ok()?;
        let trail_cell = edge(trail).ok()?;
        let mut readings = Vec::new();
        match (lead_cell, trail_cell) {
            (Some(l), Some(t)) => {
                readings.push([vec![l], cells, vec![t]].concat());
            }
            (Some(l), None) => readings.push([vec![l], cells].concat()),
            (None, Some(t)) => readings.push([cells, vec![t]].concat()),
            (None, None) => {
                let lead_blank = lead.trim().is_empty() && !self.is_label(lead.trim());
                let trail_blank = trail.trim().is_empty() && !self.is_label(trail.trim());
                readings.push(cells.clone());
                if lead_blank {
                    readings.push([vec![EMPTY], cells.clone()].concat());
                }
                if trail_blank {
                    readings.push([cells, vec![EMPTY]].concat());
                }
            }
        }
        Some(Row {
            readings,
            columns: None,
        })
    }

    fn parse_spaced(&self, line: &str, known: &mut Cells) -> Option<Row> {
        let mut tokens = std::mem::take(&mut known.tokens);
        tokens.clear();
        let mut start = None;
        for (column, (byte, c)) in line.char_indices().enumerate() {
            if c.is_whitespace() || is_border_char(c) && !is_empty_token(known, c) {
                if let Some((col, from)) = start.take() {
                    tokens.push((col, from, byte));
                }
            } else if start.is_none() {
                start = Some((column, byte));
            }
        }
        if let Some((col, from)) = start {
            tokens.push((col, from, line.len()));
        }
        let row = self.row_of_tokens(line, &tokens, known);
        known.tokens = tokens;
        row
    }

    /// The row whose cells are `tokens` of `line` (start column, byte range), row labels
    /// left out; `None` when a token is not a cell.
    fn row_of_tokens(
        &self,
        line: &str,
        tokens: &[(usize, usize, usize)],
        known: &mut Cells,
    ) -> Option<Row> {
        let mut tokens = tokens;
        let text = |&(_, from, to): &(usize, usize, usize)| &line[from..to];
        if self.labels && tokens.len() > 1 {
            if tokens.first().is_some_and(|t| self.is_label(text(t))) {
                tokens = &tokens[1..];
            }
            if tokens.len() > 1 && tokens.last().is_some_and(|t| self.is_label(text(t))) {
                tokens = &tokens[..tokens.len() - 1];
            }
        }
        if tokens.is_empty() {
            return None;
        }
        // One cell per token, as a board drawn with separators has.
        let mut cells = Vec::with_capacity(tokens.len());
        let mut columns = Vec::with_capacity(tokens.len());
        for &(col, from, to) in tokens {
            let token = &line[from..to];
            if let Some(cell) = known.classify(token) {
                cells.push(cell);
                columns.push(col);
            } else {
                // Cells written without separators ("..B..", "104768"): one cell per character.
                let mut buf = [0u8; 4];
                for (i, c) in token.chars().enumerate() {
                    cells.push(known.classify(c.encode_utf8(&mut buf))?);
                    columns.push(col + i);
                }
            }
        }
        Some(Row {
            readings: vec![cells],
            columns: Some(columns),
        })
    }
}

/// The boards of one view, read one at a time as its lines go by, so that a comparison holds
/// only the board each side is at, never all of them.
///
/// A double-spaced board (an empty line after every row) is one board: when its first two
/// rows are separated by one blank line, each later single blank line is skipped too;
/// a board whose first rows touch ends at its first blank line.
struct BoardReader<'v, L: Iterator<Item = (usize, &'v str)>> {
    lines: std::iter::Enumerate<L>,
    /// The board being read.
    current: Option<Board>,
    /// A blank line seen inside the current board.
    blank_pending: bool,
    /// Whether the current board is double-spaced (decided by its first two rows).
    spaced: Option<bool>,
    /// What the boards closed so far showed of the start.
    closed: Closed,
}

/// What a [`BoardReader`]'s closed boards showed of the start of the game.
#[derive(Default)]
struct Closed {
    /// Where the first board with no mark was read (the empty board a game starts on), if
    /// one came before any board with a mark: it is not compared, but it shows the start.
    first_unmarked: Option<usize>,
    /// A board with a mark was read.
    marked_seen: bool,
}

impl Closed {
    /// The board read, finished ([`finish`]): none when no cell of it is filled, whose place
    /// is remembered when it comes first.
    fn close(&mut self, board: Option<Board>) -> Option<Board> {
        let board = board?;
        let offset = board.offset;
        let finished = finish(board);
        match &finished {
            Some(_) => self.marked_seen = true,
            None if !self.marked_seen => {
                self.first_unmarked.get_or_insert(offset);
            }
            None => {}
        }
        finished
    }
}

impl<'v, L: Iterator<Item = (usize, &'v str)>> BoardReader<'v, L> {
    fn new(lines: L) -> Self {
        BoardReader {
            lines: lines.enumerate(),
            current: None,
            blank_pending: false,
            spaced: None,
            closed: Closed::default(),
        }
    }

    /// The next board, finished (aligned, its column positions dropped), or `None` at the end.
    fn next_board(&mut self, spec: &BoardSpec, cells: &mut Cells) -> Option<Board> {
        for (index, (offset, line)) in self.lines.by_ref() {
            let line = line.trim_end();
            if line.trim().is_empty() {
                let rows = self.current.as_ref().map_or(0, |b| b.rows.len());
                let may_continue = rows == 1 || self.spaced == Some(true);
                if rows > 0 && may_continue && !self.blank_pending {
                    self.blank_pending = true;
                    continue;
                }
                self.blank_pending = false;
                self.spaced = None;
                let current = self.current.take();
                match self.closed.close(current) {
                    Some(board) => return Some(board),
                    None => continue,
                }
            }
            let skip = is_border_line(line) || (spec.labels && is_column_header(line));
            if skip && self.current.is_some() {
                continue;
            }
            match (!skip).then(|| spec.parse_row(line, cells)).flatten() {
                Some(row) => {
                    let mut closed = None;
                    if self.current.as_ref().is_some_and(|b| b.rows.len() == 1) {
                        self.spaced = Some(self.blank_pending);
                    } else if self.blank_pending && self.spaced != Some(true) {
                        closed = self.current.take();
                        self.spaced = None;
                    }
                    self.blank_pending = false;
                    let board = self.current.get_or_insert_with(|| Board {
                        rows: Vec::new(),
                        first_line: index,
                        last_line: index,
                        offset,
                    });
                    board.rows.push(row);
                    board.last_line = index;
                    if let Some(board) = self.closed.close(closed) {
                        return Some(board);
                    }
                }
                None if skip => {}
                None => {
                    self.blank_pending = false;
                    self.spaced = None;
                    let current = self.current.take();
                    if let Some(board) = self.closed.close(current) {
                        return Some(board);
                    }
                }
            }
        }
        let current = self.current.take();
        self.closed.close(current)
    }
}

/// True when `c` is itself an empty-cell token (so `-` can mean empty for some boards).
fn is_empty_token(cells: &mut Cells, c: char) -> bool {
    let mut buf = [0u8; 4];
    cells.classify(c.encode_utf8(&mut buf)) == Some(EMPTY)
}

/// Aligns short whitespace rows to the widest row and forgets the column positions (only
/// alignment needs them); a board none of whose cells is filled is dropped.
fn finish(mut board: Board) -> Option<Board> {
    let anchor: Option<Vec<usize>> = board
        .rows
        .iter()
        .filter_map(|r| r.columns.clone())
        .rev()
        .max_by_key(|c| c.len());
    if let Some(anchor) = anchor {
        for row in &mut board.rows {
            let (Some(columns), Some(cells)) = (&row.columns, row.readings.first()) else {
                continue;
            };
            if columns.len() >= anchor.len() {
                continue;
            }
            let mut aligned: Vec<Cell> = vec![EMPTY; anchor.len()];
            let mut clash = false;
            for (col, cell) in columns.iter().zip(cells) {
                let nearest = anchor
                    .iter()
                    .enumerate()
                    .min_by_key(|(_, a)| a.abs_diff(*col))
                    .map(|(i, _)| i)
                    .unwrap_or(0);
                if aligned[nearest] != EMPTY {
                    clash = true;
                }
                aligned[nearest] = *cell;
            }
            if !clash {
                row.readings = vec![aligned];
            }
        }
    }
    for row in &mut board.rows {
        row.columns = None;
    }
    // A board with no mark at all (the empty board of a game's start) is none: nothing on it
    // to compare. A row with no mark is a row: it keeps the others in their place (an X on
    // the top row is not an X on the middle one).
    let marked = board.rows.iter().any(|r| {
        r.readings
            .iter()
            .any(|cells| cells.iter().any(|&c| c != EMPTY))
    });
    marked.then_some(board)
}

fn rows_equal(a: &Row, b: &Row) -> bool {
    a.readings.iter().any(|x| b.readings.iter().any(|y| x == y))
}

fn boards_equal(a: &Board, b: &Board) -> bool {
    a.rows.len() == b.rows.len() && a.rows.iter().zip(&b.rows).all(|(x, y)| rows_equal(x, y))
}

/// One side of a comparison: its boards, read one at a time, a board equal to the one before
/// it (a redraw after an invalid input) skipped.
struct Side<'v, L: Iterator<Item = (usize, &'v str)>> {
    reader: BoardReader<'v, L>,
    /// The board the comparison is at (`None` past the last one).
    current: Option<Board>,
    /// How many boards were read so far, the current one included.
    count: usize,
}

impl<'v, L: Iterator<Item = (usize, &'v str)>> Side<'v, L> {
    fn new(lines: L) -> Self {
        Side {
            reader: BoardReader::new(lines),
            current: None,
            count: 0,
        }
    }

    /// Moves to the next board that is not a redraw of the current one; false at the end.
    fn advance(&mut self, spec: &BoardSpec, cells: &mut Cells) -> bool {
        let previous = self.current.take();
        while let Some(board) = self.reader.next_board(spec, cells) {
            if previous.as_ref().is_none_or(|p| !boards_equal(p, &board)) {
                self.current = Some(board);
                self.count += 1;
                return true;
            }
        }
        false
    }
}

fn board_text(view: &View, board: Option<&Board>) -> String {
    match board {
        Some(b) => view
            .display()
            .lines()
            .skip(b.first_line)
            .take(b.last_line - b.first_line + 1)
            .collect::<Vec<_>>()
            .join("\n"),
        None => "(no board)".to_string(),
    }
}

/// Compares the boards printed; not applicable when neither side prints one.
///
/// Both sides are read board by board side by side: only the boards being compared (and,
/// after a difference, the two that differ) are held.
pub fn evaluate(student: &View, reference: &View, spec: &BoardSpec) -> Evaluation {
    let mut cells = Cells::new(spec);
    let mut s = Side::new(student.lines());
    let mut r = Side::new(reference.lines());
    s.advance(spec, &mut cells);
    r.advance(spec, &mut cells);
    if s.current.is_none() && r.current.is_none() {
        return Evaluation::not_applicable();
    }
    if spec.first_optional {
        let skipped = r.current.as_ref().is_some_and(|first| {
            s.current
                .as_ref()
                .is_none_or(|student_first| !boards_equal(student_first, first))
        });
        // Skipped only when the reference printed another board.
        if skipped {
            let first = r.current.clone();
            if r.advance(spec, &mut cells) {
                r.count -= 1;
            } else {
                r.current = first;
            }
        }
    }
    // Index of the first difference (a differing board, or a board on one side only), and
    // the two boards there.
    let mut at: Option<(usize, Option<Board>, Option<Board>)> = None;
    let mut offsets = (Vec::new(), Vec::new());
    // A game is played when a board follows a move: an input after the ones the reference
    // read before its first board, or one it answered with no board before its first.
    let mut student_inputs: Vec<usize> = Vec::new();
    let mut reference_inputs: Vec<usize> = Vec::new();
    let mut start: Option<usize> = None;
    let mut index = 0;
    while s.current.is_some() || r.current.is_some() {
        if at.is_none() {
            match (&s.current, &r.current) {
                (Some(got), Some(want)) if boards_equal(got, want) => {
                    offsets.0.push(got.offset);
                    offsets.1.push(want.offset);
                }
                _ => at = Some((index, s.current.clone(), r.current.clone())),
            }
        }
        if let Some(board) = &s.current {
            student_inputs.push(student.inputs_before(board.offset));
        }
        if let Some(board) = &r.current {
            let inputs = reference.inputs_before(board.offset);
            start.get_or_insert(inputs);
            reference_inputs.push(inputs);
        }
        s.advance(spec, &mut cells);
        r.advance(spec, &mut cells);
        index += 1;
    }
    // The reference's start is where it drew its first board, an empty one too: tic-tac-toe's
    // first board with a mark follows a move, and a program's lone first board there is play.
    let start = match (start, r.reader.closed.first_unmarked) {
        (Some(first), Some(empty)) => first.min(reference.inputs_before(empty)),
        (first, empty) => first
            .or(empty.map(|offset| reference.inputs_before(offset)))
            .unwrap_or(0),
    };
    let in_game = student_inputs
        .iter()
        .any(|&inputs| super::view::after_a_move(inputs, start));
    let shown = super::Shown {
        items: student_inputs.len(),
        after_input: student_inputs.iter().filter(|&&inputs| inputs > 0).count(),
    };
    let (s_len, r_len) = (s.count, r.count);
    let Some((at, got, want)) = at else {
        return Evaluation::pass(format!("all {r_len} boards match"));
    };
    let detail = match (&got, &want) {
        (Some(got), Some(want)) => {
            let row = got
                .rows
                .iter()
                .zip(&want.rows)
                .position(|(x, y)| !rows_equal(x, y))
                .unwrap_or(got.rows.len().min(want.rows.len()));
            format!("board {} differs at row {}", at + 1, row + 1)
        }
        (None, Some(_)) => format!("found {s_len} boards, expected {r_len}"),
        (Some(_), None) => format!("found {s_len} boards, expected only {r_len}"),
        (None, None) => "no boards".to_string(),
    };
    // The program's board came after an input the reference answered with none: name it.
    let detail = match got.as_ref().and_then(|board| {
        super::view::taken_where_refused(
            student,
            student.inputs_before(board.offset),
            reference,
            &reference_inputs,
            "board",
        )
    }) {
        Some(note) => format!("{detail}; {note}"),
        None => detail,
    };
    let matched = super::view::in_place(student, &offsets.0, reference, &offsets.1, at);
    let total = if r_len <= 1 { 1 } else { s_len.max(r_len) };
    Evaluation {
        in_game,
        shown,
        ..Evaluation::fail_after_agreeing(
            detail,
            board_difference(at, student, got.as_ref(), reference, want.as_ref()),
            at,
            matched,
            total,
            "boards",
        )
    }
}

/// The feedback for the `at`-th board: both boards as printed, and the inputs sent before.
fn board_difference(
    at: usize,
    student: &View,
    got: Option<&Board>,
    reference: &View,
    want: Option<&Board>,
) -> Difference {
    let inputs_before = match (got, want) {
        (Some(b), _) => student.inputs_before(b.offset),
        (None, Some(b)) => reference.inputs_before(b.offset),
        (None, None) => 0,
    };
    Difference {
        location: format!("board {}", at + 1),
        expected: board_text(reference, want),
        actual: board_text(student, got),
        inputs_before,
        relaxation: None,
        student_line: Some(got.map_or_else(
            || super::view::missing_line(student, inputs_before),
            |b| student.line_at(b.offset) + 1,
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_column_header_is_the_letters_from_a_in_order() {
        for header in [
            "A B",
            "ABC",
            "   A B C D E F G H I J K L M N O P Q R S",
            "| A | B | C |",
            "AB|C D",
        ] {
            assert!(is_column_header(header), "{header:?}");
        }
        for other in [
            "", "A", "  A  ", "A C", "B C", "a b", "A B 1", "A B C B", "1 2 3", "A B | D",
        ] {
            assert!(!is_column_header(other), "{other:?}");
        }
    }

    fn view(text: &str) -> View {
        View::from_text(text)
    }

    fn spec(cell: &str, empty: Option<&str>, labels: bool) -> BoardSpec {
        BoardSpec {
            cell: Regex::new(&format!("^(?:{cell})$")).expect("regex"),
            empty: empty.map(|e| Regex::new(&format!("^(?:{e})$")).expect("regex")),
            labels,
            first_optional: false,
            game: false,
        }
    }

    #[test]
    fn equal_tokens_are_one_cell_wherever_they_are_kept() {
        let s = spec("[A-Z]", Some("[.]"), false);
        let mut cells = Cells::new(&s);
        let letters: Vec<String> = ('A'..='Z').map(String::from).collect();
        let first: Vec<Option<Cell>> = letters.iter().map(|l| cells.classify(l)).collect();
        assert_eq!(cells.classify("."), Some(EMPTY));
        assert_eq!(cells.classify("x"), None);
        // Each distinct token its own number, the same on every later read.
        assert_eq!(first, (1..=26).map(Some).collect::<Vec<_>>());
        let again: Vec<Option<Cell>> = letters.iter().map(|l| cells.classify(l)).collect();
        assert_eq!(again, first);
        // The first FIRST_TOKENS of them are kept in the list, the rest in the map.
        assert_eq!(cells.first.len(), FIRST_TOKENS);
        assert_eq!(&*cells.first[0].0, "A");
        assert_eq!(cells.known.len(), 26 + 2 - FIRST_TOKENS);
    }

    #[test]
    fn row_labels_are_left_out_only_beside_other_cells() {
        // Digits as cells and as labels: the first and last number of a row are its labels,
        // but a row's only number is its cell, and so is the last one left after a label.
        let s = spec("[0-9]", Some("[.]"), true);
        let mut cells = Cells::new(&s);
        let width = |line: &str, cells: &mut Cells| {
            s.parse_row(line, cells).map(|row| row.readings[0].len())
        };
        assert_eq!(width("1 . 2 1", &mut cells), Some(2));
        assert_eq!(width("7", &mut cells), Some(1));
        assert_eq!(width("1 2", &mut cells), Some(1));
        let plain = spec("[0-9]", Some("[.]"), false);
        let mut cells = Cells::new(&plain);
        assert_eq!(
            plain
                .parse_row("1 . 2 1", &mut cells)
                .map(|row| row.readings[0].len()),
            Some(4)
        );
    }

    #[test]
    fn collect_blank_cells_align_by_column() {
        let s = spec("[0-9]", None, false);
        let reference = view("1 0\n0 5       8\n2 1   7 6 5\n4 1 3 7 5 6\n\nYour score is: 32\n");
        let student =
            view("1  0\n0  5           8\n2  1     7  6  5\n4  1  3  7  5  6  \nYour score: 32\n");
        assert!(evaluate(&student, &reference, &s).passed);
        let wrong = view("1 0\n0 5    8\n2 1    7 6 5\n4 1 3 7 5 6\n");
        let e = evaluate(&wrong, &reference, &s);
        assert!(!e.passed);
        assert_eq!(e.detail, "board 1 differs at row 2");
    }

    #[test]
    fn a_box_around_whole_rows_reads_like_the_rows() {
        // collect: blank cells keep their columns inside the box.
        let s = spec("[0-9]", None, false);
        let reference = view("1 0\n0 5       8\n2 1   7 6 5\n4 1 3 7 5 6\n\nYour score is: 32\n");
        let boxed = view(
            "+-------------+\n| 1 0         |\n| 0 5       8 |\n| 2 1   7 6 5 |\n| 4 1 3 7 5 6 |\n+-------------+\nYour score is: 32\n",
        );
        assert!(evaluate(&boxed, &reference, &s).passed);
        let wrong = view("| 1 0         |\n| 0 5    8    |\n| 2 1   7 6 5 |\n| 4 1 3 7 5 6 |\n");
        assert_eq!(
            evaluate(&wrong, &reference, &s).detail,
            "board 1 differs at row 2"
        );
        // connect6: the row labels inside the box are labels.
        let s = spec("[BW]", Some("[.]"), true);
        let reference = view("  A B C\n0 . . .\n1 . B .\n2 . . .\n");
        let boxed =
            view("+---------+\n|   A B C |\n| 0 . . . |\n| 1 . B . |\n| 2 . . . |\n+---------+\n");
        assert!(evaluate(&boxed, &reference, &s).passed);
        let wrong = view("|   A B C |\n| 0 . . . |\n| 1 B . . |\n| 2 . . . |\n");
        assert!(!evaluate(&wrong, &reference, &s).passed);
    }

    #[test]
    fn silver_dollar_plain_padded_and_boxed_agree() {
        let s = spec("[0-9]+", Some("_"), false);
        let reference = view("_ _ _ 0 _ 1 _ 2\nPlayer 1: Enter your move: \n");
        for student in [
            " _  _  _  0  _  1  _  2 \n",
            "+---+---+---+---+---+---+---+---+\n|   |   |   | 0 |   | 1 |   | 2 |\n+---+---+---+---+---+---+---+---+\n",
        ] {
            let e = evaluate(&view(student), &reference, &s);
            assert!(e.passed, "{student}: {}", e.detail);
        }
        let e = evaluate(&view("_ _ 0 _ _ 1 _ 2\n"), &reference, &s);
        assert!(!e.passed);
    }

    #[test]
    fn connect6_labels_and_redraws() {
        let mut s = spec("[BW]", Some("[.]"), true);
        s.first_optional = true;
        let reference = view(
            "  A B C\n0 . . .\n1 . . .\n2 . . .\nBlack: \n  A B C\n0 . . .\n1 . B .\n2 . . .\n",
        );
        let student = view("Black move: \n   A  B  C\n 0 .  .  .\n 1 .  B  .\n 2 .  .  .\nInvalid Enter again!\n   A  B  C\n 0 .  .  .\n 1 .  B  .\n 2 .  .  .\n");
        let e = evaluate(&student, &reference, &s);
        assert!(e.passed, "{}", e.detail);
        let wrong = view("ABC\n0...\n1.W.\n2...\n");
        assert!(!evaluate(&wrong, &reference, &s).passed);
    }

    #[test]
    fn game_of_m_pipe_styles_both_read() {
        let s = spec("[0-9]", Some("[_.]"), false);
        let reference = view("Position: 1 2 3 4 5 6 7 8 9 10\n          | | | | | | | | 7 | |\n");
        let started =
            view("Position: 1 2 3 4 5 6 7 8 9 10\n|   |   |   |   |   |   |   |   | 7 |   |\n");
        assert!(evaluate(&started, &reference, &s).passed);
        let wrong = view("| 7 | | | | | | | | | |\n");
        assert!(!evaluate(&wrong, &reference, &s).passed);
    }

    #[test]
    fn boards_earn_their_share_up_to_the_first_difference() {
        // Four boards after inputs 1-4; the student's third differs: boards 1 and 2 match at
        // their place, so 2 of 4 (half the check) before the first difference.
        let s = spec("[0-9]", None, false);
        let with_inputs = |boards: &[&str]| {
            let mut t = crate::transcript::Transcript::new();
            for board in boards {
                t.push_output(crate::transcript::Stream::Stdout, b"Move: ");
                t.push_input("1 1");
                t.push_output(crate::transcript::Stream::Stdout, board.as_bytes());
            }
            View::new(&t, super::super::view::InputShown::LineBreak)
        };
        let reference = with_inputs(&["1 2\n3 4\n", "1 2\n3 5\n", "1 2\n3 6\n", "1 2\n3 7\n"]);
        let student = with_inputs(&["1 2\n3 4\n", "1 2\n3 5\n", "1 2\n3 9\n", "1 2\n3 7\n"]);
        let e = evaluate(&student, &reference, &s);
        assert!(!e.passed);
        assert_eq!(e.partial, 0.5);
        assert_eq!(
            e.detail,
            "board 3 differs at row 2; 2 of 4 boards agree before the first difference"
        );
        // The right boards printed all at once, before any input: nothing in place.
        let dumped = view("1 2\n3 4\nx\n1 2\n3 5\nx\n1 2\n3 9\n");
        assert_eq!(evaluate(&dumped, &reference, &s).partial, 0.0);
    }

    #[test]
    fn a_boxed_board_with_zero_padded_labels_reads_like_the_plain_one() {
        let s = spec("[BW]", Some("[._+-]"), true);
        let reference = view("   A B C\n 0 . . .\n 1 . B .\n 2 . . W\n");
        let boxed = view(
            "     A B C\n   +-------+\n00 | . . . |\n01 | . B . |\n02 | . . W |\n   +-------+\n",
        );
        let e = evaluate(&boxed, &reference, &s);
        assert!(e.passed, "{}", e.detail);
        let labelled_both_sides = view("   A B C\n00 . . . 00\n01 . B . 01\n02 . . W 02\n");
        assert!(evaluate(&labelled_both_sides, &reference, &s).passed);
        let wrong = view("   +-------+\n00 | . . . |\n01 | . W . |\n02 | . . W |\n");
        assert!(!evaluate(&wrong, &reference, &s).passed);
    }

    #[test]
    fn a_double_spaced_board_is_one_board() {
        let s = spec("[0-9]", None, false);
        let reference = view("1 0 4\n0 5 4\n2 1 4\n\nYour score is: 0\n");
        let double = view("1 0 4\n\n0 5 4\n\n2 1 4\n\n\n\nYour score is: 0\n\n");
        let e = evaluate(&double, &reference, &s);
        assert!(e.passed, "{}", e.detail);
        // Boards whose rows touch still end at a blank line: two boards, not one.
        let two = view("1 0 4\n0 5 4\n\n2 1 4\n3 3 3\n");
        let mut cells = Cells::new(&s);
        let mut reader = BoardReader::new(two.lines());
        let boards = std::iter::from_fn(|| reader.next_board(&s, &mut cells)).count();
        assert_eq!(boards, 2);
        let wrong = view("1 0 4\n\n0 5 4\n\n2 1 5\n");
        assert_eq!(
            evaluate(&wrong, &reference, &s).detail,
            "board 1 differs at row 3"
        );
    }

    #[test]
    fn two_blank_lines_end_a_double_spaced_board_and_borders_never_do() {
        let s = spec("[0-9]", None, false);
        let read = |text: &str| {
            let text = view(text);
            let mut cells = Cells::new(&s);
            let mut reader = BoardReader::new(text.lines());
            std::iter::from_fn(|| reader.next_board(&s, &mut cells))
                .map(|b| b.rows.len())
                .collect::<Vec<_>>()
        };
        // Double-spaced rows, then two blank lines, then the next double-spaced board.
        assert_eq!(read("1 0\n\n0 5\n\n\n2 1\n\n3 3\n"), [2, 2]);
        // Border lines between the rows (no labels asked for) belong to the board.
        assert_eq!(
            read("+---+---+\n| 1 | 0 |\n+---+---+\n| 0 | 5 |\n+---+---+\n"),
            [2]
        );
    }

    #[test]
    fn an_optional_first_board_is_skipped_only_when_the_student_left_it_out() {
        let mut s = spec("[0-9]", None, false);
        s.first_optional = true;
        let reference = view("1 1\n1 1\nMove: \n2 2\n2 2\n");
        assert!(evaluate(&reference, &reference, &s).passed);
        let without_first = view("2 2\n2 2\n");
        assert!(evaluate(&without_first, &reference, &s).passed);
        // The skipped board is not counted as expected.
        let extra = view("2 2\n2 2\nMove: \n3 3\n3 3\n");
        assert_eq!(
            evaluate(&extra, &reference, &s).detail,
            "found 2 boards, expected only 1"
        );
    }

    #[test]
    fn a_board_drawn_after_an_input_shows_a_game_being_played() {
        use crate::check::view::InputShown;
        let s = spec("[0-9]", None, false);
        let reference = view("1 2\n3 4\n");
        let student = |input_first: bool| {
            let mut t = crate::transcript::Transcript::new();
            if input_first {
                t.push_input("x");
            }
            t.push_output(crate::transcript::Stream::Stdout, b"1 2\n3 5\n");
            View::new(&t, InputShown::LineBreak)
        };
        let played = evaluate(&student(true), &reference, &s);
        assert!(!played.passed);
        assert!(played.in_game);
        let dumped = evaluate(&student(false), &reference, &s);
        assert!(!dumped.passed);
        assert!(!dumped.in_game);
    }

    #[test]
    fn a_board_after_an_input_the_reference_refuses_is_a_game_and_named() {
        // Issue 32: the reference refuses "0" and draws its first board after "5" (input 2);
        // a program that takes "0" draws its first board after input 1, before the
        // reference's, and has played.
        use crate::check::view::InputShown;
        use crate::transcript::{Stream, Transcript};
        let s = spec("[0-9]", None, false);
        let run = |parts: &[(&str, &str)]| {
            let mut t = Transcript::new();
            for (input, output) in parts {
                t.push_input(*input);
                t.push_output(Stream::Stdout, output.as_bytes());
            }
            View::new(&t, InputShown::LineBreak)
        };
        let reference = run(&[("0", "Bad cell.\n"), ("5", "1 2\n3 4\n")]);
        let took = run(&[("0", "1 2\n3 9\n"), ("5", "1 2\n3 4\n")]);
        let e = evaluate(&took, &reference, &s);
        assert!(!e.passed);
        assert!(e.in_game);
        assert_eq!(
            e.detail,
            "board 1 differs at row 2; printed after input 1 (\"0\"), where the reference \
             printed no new board"
        );
        assert_eq!(
            e.shown,
            crate::check::Shown {
                items: 2,
                after_input: 2
            }
        );
        // Its one board where the reference draws its first (the start): no game.
        let start = run(&[("0", "Bad cell.\n"), ("5", "1 2\n3 5\n")]);
        let e = evaluate(&start, &reference, &s);
        assert!(!e.in_game);
        assert!(!e.detail.contains("printed after input"), "{}", e.detail);
    }

    #[test]
    fn rows_without_a_mark_keep_the_others_in_their_place() {
        // Tic-tac-toe (tests/assignments/tictactoe): X in cell 1, then O in cell 5. Drawn upside
        // down, the top row comes last: the first board already differs, at its first row
        // (the reference's "X . ." against the program's empty top row).
        let s = spec("[XOxo]", Some("[.]"), false);
        // The detail, without the share of boards that agree before it (when there are two).
        let at = |detail: &str| detail.split(';').next().unwrap_or_default().to_string();
        let reference =
            view(". . .\n. . .\n. . .\nX: \nX . .\n. . .\n. . .\nO: \nX . .\n. O .\n. . .\n");
        let upside_down =
            view(". . .\n. . .\n. . .\nX: \n. . .\n. . .\nX . .\nO: \n. . .\n. O .\nX . .\n");
        let e = evaluate(&upside_down, &reference, &s);
        assert!(!e.passed);
        assert_eq!(at(&e.detail), "board 1 differs at row 1");
        // X in cell 4 is not X in cell 1.
        let cell_4 = view("X: \n. . .\nX . .\n. . .\nO: \n. . .\nX O .\n. . .\n");
        let detail = evaluate(&cell_4, &reference, &s).detail;
        assert_eq!(at(&detail), "board 1 differs at row 1");
        // Rows are numbered as the board draws them: a difference in the middle row of a
        // board whose top row is empty is at row 2.
        let reference = view("X: \n. . .\nX . .\n. . .\n");
        let middle = view("X: \n. . .\n. X .\n. . .\n");
        let detail = evaluate(&middle, &reference, &s).detail;
        assert_eq!(at(&detail), "board 1 differs at row 2");
        // A board with no mark (the start) is still none: leaving it out costs nothing, and
        // the right boards agree.
        let reference = view(". . .\n. . .\n. . .\nX: \nX . .\n. . .\n. . .\n");
        assert!(evaluate(&view("X: \nX . .\n. . .\n. . .\n"), &reference, &s).passed);
        assert!(evaluate(&reference, &reference, &s).passed);
    }

    #[test]
    fn a_lone_first_move_after_an_empty_start_board_is_a_game() {
        // Tic-tac-toe: the reference draws the empty board, then X in cell 1 after input 1.
        // The empty board (no mark) is not compared but is the start: a program whose only
        // board is a wrong one after that first move has played.
        use crate::check::view::InputShown;
        use crate::transcript::{Stream, Transcript};
        let s = spec("[XOxo]", Some("[.]"), false);
        let run = |start: &str, after: &str| {
            let mut t = Transcript::new();
            t.push_output(Stream::Stdout, start.as_bytes());
            t.push_input("1");
            t.push_output(Stream::Stdout, after.as_bytes());
            View::new(&t, InputShown::LineBreak)
        };
        let reference = run(". . .\n. . .\n. . .\nX: ", "X . .\n. . .\n. . .\nO: ");
        let wrong = run(". . .\n. . .\n. . .\nX: ", ". . .\n. . .\nX . .\nO: ");
        let e = evaluate(&wrong, &reference, &s);
        assert!(!e.passed);
        assert!(e.in_game);
        // Without the empty board, the reference's first board is its start: the same lone
        // board there is no move (nim's first matches follow "y").
        let reference = run("X: ", "X . .\n. . .\n. . .\nO: ");
        assert!(!evaluate(&wrong, &reference, &s).in_game);
    }

    #[test]
    fn not_applicable_without_boards() {
        let s = spec("[0-9]", None, false);
        assert!(evaluate(&view("hello\n"), &view("world\n"), &s).not_applicable);
    }
}
