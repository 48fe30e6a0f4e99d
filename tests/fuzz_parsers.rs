//! Bounded fuzzing of every parser a student or an instructor feeds (issue 21): case YAML,
//! collect's board files, the board reader of the `board` check, the Silver Dollar strip
//! reader, submission archives (zip and tar.gz) and the report escaper.
//!
//! Each property runs a fixed number of generated inputs (proptest, seeded per run; a failure
//! prints the shrunk input that reproduces it and is kept in
//! `fuzz_parsers.proptest-regressions`), so CI runs the whole suite in seconds. `.ci/run`
//! fixes the seed (`PROPTEST_RNG_SEED`), so CI's verdict depends on the commit alone; a local
//! run draws new inputs each time (`PROPTEST_CASES=3000` for a longer one). The
//! properties: no panic on any input; an error names the file and the problem; an archive
//! never writes outside its folder; the escaper lets no control character or escape sequence
//! through and leaves printable text as it is.

use std::path::{Path, PathBuf};

use grade::assignments::collect::game::Board;
use grade::assignments::silver_dollar::strip;
use grade::cases::{load, CaseTree};
use grade::check::board::{self, BoardSpec};
use grade::check::view::{InputShown, View};
use grade::escape;
use grade::submission::archive::{self, Format};
use grade::submission::ARCHIVE_CAPS;
use grade::transcript::{Stream, Transcript};
use proptest::prelude::*;
use regex::Regex;

// ---------------------------------------------------------------------------------------------
// Case YAML

/// A YAML scalar that is sometimes what a key wants and often not.
fn yaml_value() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("fuzz".to_string()),
        Just("10".to_string()),
        Just("-1".to_string()),
        Just("0".to_string()),
        Just(".nan".to_string()),
        Just("1e400".to_string()),
        Just("true".to_string()),
        Just("null".to_string()),
        Just("[]".to_string()),
        Just("{}".to_string()),
        Just("[y, \"3\", \"2\"]".to_string()),
        Just("'(unclosed'".to_string()),
        Just("'\\b(player|computer)\\s*turn\\b'".to_string()),
        Just("'[0-9]'".to_string()),
        Just("'(?P<x>a)(?P<x>b)'".to_string()),
        Just("'a{1000000}'".to_string()),
        Just("'^$'".to_string()),
        Just("''".to_string()),
        Just("sequence".to_string()),
        Just("presence".to_string()),
        Just("legal".to_string()),
        Just("blank_lines".to_string()),
        Just("*anchor".to_string()),
        Just("&a [1, *a]".to_string()),
        "[a-z_]{0,12}",
        "[ -~]{0,30}".prop_map(|s| format!("{s:?}")),
        (0u64..1_000_000).prop_map(|n| n.to_string()),
    ]
}

/// A `checks:` list of check specs with any kind and any fields.
fn yaml_checks() -> impl Strategy<Value = String> {
    let kind = prop_oneof![
        Just("lines"),
        Just("board"),
        Just("transcript"),
        Just("contains"),
        Just("volume"),
        Just("exit"),
        Just("strips"),
        Just("strip_start"),
        Just("random_starts"),
        Just("nonsense"),
    ];
    let field = prop_oneof![
        Just("name"),
        Just("weight"),
        Just("pattern"),
        Just("cell"),
        Just("empty"),
        Just("text"),
        Just("level"),
        Just("compare"),
        Just("at_inputs"),
        Just("free_elsewhere"),
        Just("item"),
        Just("rule"),
        Just("max_ratio"),
        Just("numbers"),
        Just("dedup"),
        Just("unknown_key"),
    ];
    prop::collection::vec(
        (
            kind,
            prop::collection::vec((field, yaml_value()), 0..5).prop_map(|fields| {
                // Each key once (a repeated key is only a YAML error).
                let mut seen = Vec::new();
                fields
                    .into_iter()
                    .filter(|(key, _)| {
                        let new = !seen.contains(key);
                        seen.push(*key);
                        new
                    })
                    .collect::<Vec<_>>()
            }),
        ),
        0..4,
    )
    .prop_map(|checks| {
        let mut text = String::from("checks:\n");
        for (kind, fields) in checks {
            text.push_str(&format!("  - kind: {kind}\n"));
            for (key, value) in fields {
                text.push_str(&format!("    {key}: {value}\n"));
            }
        }
        text
    })
}

/// A case file: top-level keys with any values, sometimes checks, sometimes plain garbage.
fn case_yaml() -> impl Strategy<Value = String> {
    let key = prop_oneof![
        Just("name"),
        Just("description"),
        Just("points"),
        Just("input"),
        Just("input_file"),
        Just("visibility"),
        Just("args"),
        Just("reference_args"),
        Just("limits"),
        Just("end_of_input"),
        Just("drive"),
        Just("explore"),
        Just("samples"),
        Just("files"),
        Just("board_size"),
        Just("robustness"),
        Just("typo_key"),
    ];
    let optional_key = prop_oneof![
        Just("visibility"),
        Just("args"),
        Just("reference_args"),
        Just("limits"),
        Just("end_of_input"),
        Just("drive"),
        Just("explore"),
        Just("samples"),
        Just("files"),
        Just("board_size"),
        Just("robustness"),
    ];
    prop_oneof![
        // A valid start, then optional keys and checks with any values: reaches the checks'
        // compilation, the driver and the limits.
        4 => (
            prop::collection::vec((optional_key, yaml_value()), 0..3),
            yaml_checks(),
        )
            .prop_map(|(pairs, checks)| {
                let mut text = String::from(
                    "name: fuzz\ndescription: fuzzed\npoints: 5\ninput: [y, \"3\", \"1 2\"]\n",
                );
                let mut seen = Vec::new();
                for (key, value) in pairs {
                    if !seen.contains(&key) {
                        seen.push(key);
                        text.push_str(&format!("{key}: {value}\n"));
                    }
                }
                text.push_str(&checks);
                text
            }),
        2 => (
            prop::collection::vec((key, yaml_value()), 0..8),
            prop::option::of(yaml_checks()),
        )
            .prop_map(|(pairs, checks)| {
                let mut text = String::from("name: fuzz\n");
                for (key, value) in pairs {
                    text.push_str(&format!("{key}: {value}\n"));
                }
                text.push_str(&checks.unwrap_or_default());
                text
            }),
        1 => "\\PC{0,200}",
        1 => prop::collection::vec(any::<u8>(), 0..200)
            .prop_map(|bytes| String::from_utf8_lossy(&bytes).into_owned()),
    ]
}

/// A case tree holding the shipped `assignment.yaml` of `game` and one more file.
fn case_tree(game: &str, file: &str, text: &str) -> (tempfile::TempDir, PathBuf) {
    let root = tempfile::tempdir().expect("temporary directory");
    let dir = root.path().join("cases").join(game);
    std::fs::create_dir_all(&dir).expect("cases directory");
    let header = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("cases")
        .join(game)
        .join("assignment.yaml");
    std::fs::copy(header, dir.join("assignment.yaml")).expect("assignment.yaml");
    let path = dir.join(file);
    std::fs::write(&path, text).expect("case file");
    (root, path)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Any case file loads or is refused with an error naming that file and saying what is
    /// wrong, in one line.
    #[test]
    fn a_case_file_loads_or_names_its_problem(
        text in case_yaml(),
        game in 0usize..grade::assignments::ASSIGNMENTS.len(),
    ) {
        let assignment = grade::assignments::ASSIGNMENTS[game];
        let name = assignment.name();
        let (root, _path) = case_tree(name, "fuzz.yaml", &text);
        let tree = CaseTree::from_dir(root.path()).expect("the tree reads");
        if let Err(error) = load(&tree, assignment) {
            prop_assert!(error.file.ends_with("fuzz.yaml"), "{error}");
            prop_assert!(!error.message.trim().is_empty(), "{error}");
            prop_assert!(!error.to_string().contains('\n'), "one line: {error}");
        }
    }

    /// An instructor's own assignment.yaml (defaults, limits, checks) is read the same way.
    #[test]
    fn an_assignment_file_loads_or_names_its_problem(
        pairs in prop::collection::vec(
            (prop_oneof![
                Just("title"), Just("args"), Just("limits"), Just("files"),
                Just("end_of_input"), Just("rubric"), Just("requirements"), Just("typo_key"),
            ], yaml_value()),
            0..6,
        ),
        checks in prop::option::of(yaml_checks()),
    ) {
        let mut text = String::from("assignment: nim\n");
        for (key, value) in pairs {
            text.push_str(&format!("{key}: {value}\n"));
        }
        text.push_str(&checks.unwrap_or_default());
        let (root, _path) = case_tree("nim", "assignment.yaml", &text);
        let tree = CaseTree::from_dir(root.path()).expect("the tree reads");
        if let Err(error) = load(&tree, grade::assignments::nim::ASSIGNMENT) {
            prop_assert!(error.file.ends_with("assignment.yaml"), "{error}");
            prop_assert!(!error.message.trim().is_empty(), "{error}");
            prop_assert!(!error.to_string().contains('\n'), "one line: {error}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Board files and the board check's reader

/// Board-file text: mostly digits and spaces, with every kind of trouble mixed in.
fn board_text() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "([0-9]( [0-9]){0,6}\n){0,8}",
        2 => "[0-9 \t\r\n_.x|+-]{0,120}",
        1 => "\\PC{0,80}",
        1 => prop::collection::vec(any::<u8>(), 0..120)
            .prop_map(|bytes| String::from_utf8_lossy(&bytes).into_owned()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// A board file is a rectangle of digits, or an error naming the file and its problem.
    #[test]
    fn a_board_file_parses_or_names_its_problem(text in board_text()) {
        let path = Path::new("boards/fuzz.txt");
        match Board::parse(path, &text) {
            Ok(board) => {
                prop_assert!(board.height() > 0 && board.width() > 0);
                prop_assert!(board.rows.iter().all(|row| row.len() == board.width()));
                prop_assert!(board.rows.iter().flatten().all(|cell| cell.is_some_and(|d| d <= 9)));
                // What the reference shows of it reads back as the same board.
                let again = Board::parse(path, &board.render());
                prop_assert_eq!(again.ok(), Some(board));
            }
            Err(error) => {
                let message = error.to_string();
                prop_assert!(message.contains("boards/fuzz.txt"), "{message}");
                prop_assert!(!message.contains('\n'), "one line: {message}");
            }
        }
    }

    /// The board check reads any output without panicking, and output agrees with itself.
    #[test]
    fn the_board_reader_reads_any_output(text in board_text(), labels: bool, with_empty: bool) {
        let spec = BoardSpec {
            cell: Regex::new("^(?:[0-9])$").expect("regex"),
            empty: with_empty.then(|| Regex::new("^(?:[._])$").expect("regex")),
            labels,
            first_optional: false,
            game: true,
        };
        let view = view_of(&text);
        let same = board::evaluate(&view, &view, &spec);
        prop_assert!(same.passed, "{}", same.detail);
        let other = board::evaluate(&view, &view_of("1 2\n3 4\n"), &spec);
        prop_assert!(!other.detail.is_empty());
    }
}

/// The view a check reads of a program that printed `text`, one input typed in the middle.
fn view_of(text: &str) -> View {
    let mut transcript = Transcript::new();
    // Split anywhere, even inside a character: a program's writes are bytes.
    let (before, after) = text.as_bytes().split_at(text.len() / 2);
    transcript.push_output(Stream::Stdout, before);
    transcript.push_input("1 1");
    transcript.push_output(Stream::Stdout, after);
    View::new(&transcript, InputShown::LineBreak)
}

// ---------------------------------------------------------------------------------------------
// The Silver Dollar strip reader

/// A strip line in any drawing style, or something that only looks like one.
fn strip_line() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "(_|[0-9]{1,3}|\\.|\\[_\\]|\\[[0-9]\\]| )( {1,3}(_|[0-9]{1,8}|\\.|\\[_\\]|\\([0-9]\\))){0,12}",
        2 => "(\\|( {0,3}|[0-9]{1,2}|_) ){0,10}\\|",
        2 => "[_0-9 |\\[\\]().+-]{0,60}",
        1 => "\\PC{0,60}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

    /// A line is a strip or not; a strip drawn back in the handout's style reads the same,
    /// and asking whether it is a legal start never panics.
    #[test]
    fn the_strip_reader_reads_any_line(line in strip_line(), asked in 0usize..12) {
        if let Some(squares) = strip::read_strip(&line) {
            prop_assert!(squares.iter().any(Option::is_some));
            let drawn = strip::render(&squares);
            prop_assert_eq!(strip::read_strip(&drawn), Some(squares.clone()), "drawn as {}", drawn);
            let _ = strip::legal_start(&squares, asked);
        }
    }

    /// Whole outputs of strips: the start and the strips are found without panicking, and a
    /// program's strips agree with themselves.
    #[test]
    fn strips_in_any_output_compare_with_themselves(lines in prop::collection::vec(strip_line(), 0..8)) {
        let text = lines.join("\n");
        let mut transcript = Transcript::new();
        transcript.push_output(Stream::Stdout, b"How many coins? ");
        transcript.push_input("4");
        transcript.push_output(Stream::Stdout, text.as_bytes());
        let _ = strip::find_start(&transcript);
        let view = View::new(&transcript, InputShown::LineBreak);
        let _ = strip::evaluate_start(&transcript, &view);
        let same = strip::evaluate_strips(&view, &view);
        prop_assert!(same.passed, "{}", same.detail);
    }
}

// ---------------------------------------------------------------------------------------------
// Archives

/// An entry name as a hostile or careless archive might hold it.
fn entry_name() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "[a-z]{1,8}(/[a-z]{1,8}){0,3}(\\.py|\\.cpp|/)?",
        1 => Just("../escape.txt".to_string()),
        1 => Just("/etc/escape".to_string()),
        1 => Just("a/../../escape".to_string()),
        1 => Just("./a/./b".to_string()),
        1 => Just("a\\..\\..\\escape".to_string()),
        1 => Just("".to_string()),
        1 => "[a-z]{1,4}(/\\.\\.){1,3}(/[a-z]{1,4})?",
        1 => "\\PC{1,20}",
        1 => "[a-z]{200,300}",
    ]
}

/// (name, contents, unix mode) of each entry.
type Entries = Vec<(String, Vec<u8>, u32)>;

fn entries() -> impl Strategy<Value = Entries> {
    prop::collection::vec(
        (
            entry_name(),
            prop::collection::vec(any::<u8>(), 0..64),
            prop_oneof![
                Just(0o100644u32),
                Just(0o100755),
                Just(0o040755),
                Just(0o120777),
                Just(0o010644),
                any::<u32>(),
            ],
        ),
        0..8,
    )
}

fn zip_of(entries: &Entries) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, data, mode) in entries {
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Stored)
            .unix_permissions(*mode);
        if writer.start_file(name.as_str(), options).is_ok() {
            let _ = std::io::Write::write_all(&mut writer, data);
        }
    }
    writer
        .finish()
        .map(|cursor| cursor.into_inner())
        .unwrap_or_default()
}

fn tar_gz_of(entries: &Entries) -> Vec<u8> {
    let encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let mut builder = tar::Builder::new(encoder);
    for (name, data, mode) in entries {
        let mut header = tar::Header::new_gnu();
        let kind = match mode & 0o170000 {
            0o040000 => tar::EntryType::Directory,
            0o120000 => tar::EntryType::Symlink,
            0o010000 => tar::EntryType::Fifo,
            _ => tar::EntryType::Regular,
        };
        header.set_entry_type(kind);
        header.set_mode(mode & 0o7777);
        header.set_size(data.len() as u64);
        // Written raw, as a hostile archive would be: `append_data` refuses "..".
        let bytes = name.as_bytes();
        let field = &mut header.as_old_mut().name;
        let length = bytes.len().min(field.len());
        field[..length].copy_from_slice(&bytes[..length]);
        if kind == tar::EntryType::Symlink {
            let _ = header.set_link_name("../../outside");
        }
        header.set_cksum();
        let _ = builder.append(&header, data.as_slice());
    }
    builder
        .into_inner()
        .and_then(|encoder| encoder.finish())
        .unwrap_or_default()
}

/// Unpacks `bytes` as `format` into a fresh folder; asserts nothing appeared beside it.
fn unpack_contained(bytes: &[u8], format: Format) -> Result<(), TestCaseError> {
    let scratch = tempfile::tempdir().expect("temporary directory");
    let archive_path = scratch.path().join("submission.archive");
    std::fs::write(&archive_path, bytes).expect("archive written");
    let into = scratch.path().join("unpacked");
    std::fs::create_dir(&into).expect("target folder");
    let outcome = archive::unpack(&archive_path, format, &into, ARCHIVE_CAPS);
    if let Err(error) = &outcome {
        let message = error.to_string();
        prop_assert!(!message.trim().is_empty());
        prop_assert!(!message.contains('\n'), "one line: {message}");
    }
    let mut beside: Vec<String> = std::fs::read_dir(scratch.path())
        .expect("scratch folder")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    beside.sort();
    prop_assert_eq!(beside, ["submission.archive", "unpacked"]);
    // Nothing inside is a link (which could point anywhere).
    for entry in walkdir::WalkDir::new(&into).follow_links(false) {
        let entry = entry.expect("walk");
        prop_assert!(
            !entry.path_is_symlink(),
            "{} is a link",
            entry.path().display()
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// Any zip, well formed or hostile: unpacked inside its folder, or refused in one line.
    #[test]
    fn a_zip_unpacks_inside_its_folder_or_is_refused(entries in entries()) {
        unpack_contained(&zip_of(&entries), Format::Zip)?;
    }

    /// Any tar.gz likewise.
    #[test]
    fn a_tar_gz_unpacks_inside_its_folder_or_is_refused(entries in entries()) {
        unpack_contained(&tar_gz_of(&entries), Format::TarGz)?;
    }

    /// A damaged archive (bytes overwritten, cut short) never panics the grader.
    #[test]
    fn a_damaged_archive_is_refused_or_unpacked_never_a_panic(
        entries in entries(),
        tar_gz: bool,
        damage in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8),
        cut in any::<prop::sample::Index>(),
        shorten: bool,
    ) {
        let mut bytes = if tar_gz { tar_gz_of(&entries) } else { zip_of(&entries) };
        if !bytes.is_empty() {
            for (at, byte) in damage {
                let index = at.index(bytes.len());
                bytes[index] = byte;
            }
            if shorten {
                bytes.truncate(cut.index(bytes.len()));
            }
        }
        let format = if tar_gz { Format::TarGz } else { Format::Zip };
        unpack_contained(&bytes, format)?;
    }

    /// Random bytes named .zip or .tar.gz.
    #[test]
    fn random_bytes_are_not_an_archive(bytes in prop::collection::vec(any::<u8>(), 0..512), tar_gz: bool) {
        let format = if tar_gz { Format::TarGz } else { Format::Zip };
        unpack_contained(&bytes, format)?;
    }
}

// ---------------------------------------------------------------------------------------------
// The report escaper

/// Whether `c` may reach a terminal: not a control character (but newline and tab), not a
/// bidirectional override.
fn harmless(c: char) -> bool {
    !((c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{061c}'))
}

/// Text a student's program might print: terminal escapes, controls, bidi overrides, long
/// lines, invalid-looking sequences.
fn hostile_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        "[ -~]{0,20}",
        Just("\x1b[2J\x1b[H".to_string()),
        Just("\x1b]0;title\x07".to_string()),
        Just("\u{9b}31m".to_string()),
        Just("\r".to_string()),
        Just("\0".to_string()),
        Just("\u{202e}".to_string()),
        Just("\u{2066}".to_string()),
        Just("\x7f".to_string()),
        Just("\n".to_string()),
        Just("\t".to_string()),
        "\\PC{0,10}",
        any::<char>().prop_map(String::from),
        "[a-z]{100,400}",
    ];
    prop::collection::vec(piece, 0..12).prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

    /// What the escaper shows holds no control character or escape sequence, and nothing of
    /// the original is lost but the controls it spelled out.
    #[test]
    fn escaped_text_holds_no_control_character(text in hostile_text()) {
        let shown = escape::visible(&text);
        prop_assert!(shown.chars().all(harmless), "{shown:?}");
        prop_assert!(!shown.contains('\x1b'));
        let kept: String = text.chars().filter(|&c| harmless(c)).collect();
        let shown_kept: String = shown.chars().filter(|c| !c.is_ascii_punctuation()).collect();
        let expected: String = kept.chars().filter(|c| !c.is_ascii_punctuation()).collect();
        // Every harmless character is still there, in order (controls became `\e`, `\u{..}`).
        let mut rest = shown_kept.chars();
        prop_assert!(expected.chars().all(|c| rest.any(|s| s == c)), "{shown:?} lost part of {text:?}");
    }

    /// Printable text comes through the escaper unchanged.
    #[test]
    fn printable_text_round_trips(text in "[ -~\n\t]{0,200}|\\PC{0,100}") {
        prop_assume!(text.chars().all(harmless));
        prop_assert_eq!(escape::visible(&text), text.clone());
        prop_assert_eq!(escape::bounded(&text, usize::MAX, usize::MAX), text.clone());
        prop_assert_eq!(escape::case_text(&text), text);
    }

    /// A report field is bounded: each line cut at the width with its cut marked, the whole
    /// at about the byte limit, and still no control character.
    #[test]
    fn report_fields_are_bounded(text in hostile_text(), width in 1usize..80, max_bytes in 1usize..2000) {
        let shown = escape::bounded(&text, width, max_bytes);
        prop_assert!(shown.chars().all(harmless), "{shown:?}");
        for line in shown.lines() {
            let body = line.split("… [").next().unwrap_or(line);
            // Escapes spell a character as up to 10 ASCII characters.
            prop_assert!(body.chars().count() <= width * 10, "{line:?} is wider than {width}");
        }
        // The cut comes at a line after `max_bytes`; a line is at most `width` characters.
        prop_assert!(shown.len() <= max_bytes + width * 40 + 64, "{} bytes", shown.len());
        let field = escape::field(&text);
        prop_assert!(field.chars().all(harmless));
        prop_assert!(field.len() <= escape::FIELD_BYTES + escape::LINE_WIDTH * 40 + 64);
    }
}
