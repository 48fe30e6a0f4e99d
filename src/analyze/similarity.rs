//! Similarity between submissions, MOSS-style (docs/similarity.md): each submission becomes a
//! normalised token stream from the same parse the requirements read (identifiers, literals
//! and comments abstracted, layout gone), its k-grams are hashed and winnowed into
//! fingerprints, and every pair is scored by the share of each side's tokens that the shared
//! fingerprints cover. Renaming, reformatting and reordering functions change none of the
//! fingerprints; dead code added to one side only lowers that side's share.
//!
//! The result is evidence for a person to read both programs side by side, never a verdict.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{Program, SourceFile, SourceLanguage};

/// Tokens per k-gram: a shared run shorter than this is noise (MOSS's noise threshold).
pub const K: usize = 12;
/// Winnowing window: any shared run of at least `K + WINDOW - 1` tokens is always found.
pub const WINDOW: usize = 8;
/// A fingerprint found in more than this share of the submissions (when there are at least
/// [`COMMON_MIN_SUBMISSIONS`]) is common to the assignment, not evidence about a pair.
pub const COMMON_SHARE: f64 = 0.5;
/// Below this many submissions nothing counts as common.
pub const COMMON_MIN_SUBMISSIONS: usize = 4;
/// A fingerprint shared by a pair more often than this (occurrences on one side times the
/// other) is repeated boilerplate, not evidence, and is skipped.
const MAX_SEEDS_PER_FINGERPRINT: usize = 64;

/// One token of a normalised stream, with where it came from.
#[derive(Debug, Clone, Copy)]
struct Token {
    /// The normalised token's hash.
    kind: u64,
    /// Which file of the submission.
    file: u32,
    /// 1-based line.
    line: u32,
}

/// Node kinds that are names (abstracted to one token).
fn is_name(kind: &str) -> bool {
    kind.ends_with("identifier")
        || matches!(kind, "namespace_identifier" | "destructor_name" | "this")
}

/// Node kinds that are literals (abstracted, and read as one token).
fn literal_class(kind: &str) -> Option<&'static str> {
    Some(match kind {
        "string_literal"
        | "raw_string_literal"
        | "concatenated_string"
        | "string"
        | "char_literal"
        | "character_literal"
        | "text_block"
        | "system_lib_string"
        | "preproc_arg" => "STR",
        "number_literal"
        | "integer"
        | "float"
        | "decimal_integer_literal"
        | "hex_integer_literal"
        | "octal_integer_literal"
        | "binary_integer_literal"
        | "decimal_floating_point_literal" => "NUM",
        _ => return None,
    })
}

fn hash_str(text: &str) -> u64 {
    // FNV-1a: stable across runs and platforms, so reports are reproducible.
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The normalised tokens of a file, in source order.
fn tokens_of(file: &SourceFile, index: u32, out: &mut Vec<Token>) {
    // A cursor walk, not recursion: a hostile file nested 100 000 deep must not overflow the
    // stack.
    let mut cursor = file.tree.walk();
    loop {
        let node = cursor.node();
        let kind = node.kind();
        let push = |out: &mut Vec<Token>, text: &str| {
            out.push(Token {
                kind: hash_str(text),
                file: index,
                line: u32::try_from(node.start_position().row + 1).unwrap_or(u32::MAX),
            })
        };
        let mut descend = false;
        if matches!(kind, "comment" | "line_comment" | "block_comment") {
        } else if let Some(class) = literal_class(kind) {
            push(out, class);
        } else if node.child_count() == 0 {
            if is_name(kind) {
                push(out, "ID");
            } else if node.is_named() {
                // Named leaves that are not names: types such as `int` or `void`, `true`, `null`.
                let text = file.text_of(node);
                push(out, text.get(..text.len().min(32)).unwrap_or(kind));
            } else if !node.is_extra() && !kind.is_empty() {
                // Keywords, operators and punctuation: their own text, as the grammar names them.
                push(out, kind);
            }
        } else {
            descend = true;
        }
        if descend && cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return;
            }
        }
    }
}

/// A submission read for similarity.
pub struct Fingerprinted {
    /// How it is named in the report (its file or directory name).
    pub name: String,
    /// The path as given.
    pub path: PathBuf,
    /// The language of its sources, if any.
    pub language: Option<SourceLanguage>,
    /// Its parsed files.
    pub program: Program,
    tokens: Vec<Token>,
    /// Fingerprint hash → the token positions of its k-grams.
    fingerprints: HashMap<u64, Vec<u32>>,
}

/// The hashes of every k-gram of a token stream (position = the k-gram's first token).
fn kgram_hashes(tokens: &[Token]) -> Vec<u64> {
    if tokens.len() < K {
        return Vec::new();
    }
    tokens
        .windows(K)
        .map(|gram| {
            gram.iter().fold(0x9e37_79b9_7f4a_7c15u64, |h, t| {
                (h.rotate_left(5) ^ t.kind).wrapping_mul(0x0100_0000_01b3)
            })
        })
        .collect()
}

/// Winnowing (Schleimer, Wilkerson, Aiken 2003): the smallest hash of every window of
/// [`WINDOW`] k-grams (the rightmost on ties), each selected position once.
fn winnow(hashes: &[u64]) -> Vec<(u64, u32)> {
    let mut selected: Vec<(u64, u32)> = Vec::new();
    if hashes.is_empty() {
        return selected;
    }
    let window = WINDOW.min(hashes.len());
    let mut last: Option<usize> = None;
    for start in 0..=hashes.len() - window {
        let mut best = start;
        for i in start..start + window {
            if hashes[i] <= hashes[best] {
                best = i;
            }
        }
        if last != Some(best) {
            selected.push((hashes[best], u32::try_from(best).unwrap_or(u32::MAX)));
            last = Some(best);
        }
    }
    selected
}

impl Fingerprinted {
    /// Reads, parses and fingerprints one submission.
    pub fn load(path: &Path) -> Fingerprinted {
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        Fingerprinted::load_as(&name, path, path)
    }

    /// Reads the sources at `read_from` (an unpacked archive, say) as the submission `name`,
    /// given as `path`.
    pub fn load_as(name: &str, path: &Path, read_from: &Path) -> Fingerprinted {
        let program = Program::load(read_from);
        let mut tokens = Vec::new();
        for (index, file) in program.files.iter().enumerate() {
            tokens_of(file, u32::try_from(index).unwrap_or(u32::MAX), &mut tokens);
        }
        let mut fingerprints: HashMap<u64, Vec<u32>> = HashMap::new();
        for (hash, position) in winnow(&kgram_hashes(&tokens)) {
            fingerprints.entry(hash).or_default().push(position);
        }
        Fingerprinted {
            name: name.to_string(),
            path: path.to_path_buf(),
            language: program.language,
            program,
            tokens,
            fingerprints,
        }
    }

    /// Every k-gram hash of a base file (starter code, the handout's text) read as each of
    /// `languages`, or of the sources of a base directory: all of them are excluded, not only
    /// the winnowed ones.
    fn base_hashes(path: &Path, languages: &[SourceLanguage]) -> anyhow::Result<HashSet<u64>> {
        if path.is_dir() {
            let program = Program::load(path);
            let mut tokens = Vec::new();
            for (index, file) in program.files.iter().enumerate() {
                tokens_of(file, u32::try_from(index).unwrap_or(u32::MAX), &mut tokens);
            }
            return Ok(kgram_hashes(&tokens).into_iter().collect());
        }
        let bytes = std::fs::read(path)
            .map_err(|e| anyhow::anyhow!("cannot read the base file {}: {e}", path.display()))?;
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let mut hashes = HashSet::new();
        let own = SourceLanguage::of(path);
        for language in languages
            .iter()
            .copied()
            .filter(|l| own.is_none_or(|o| o == *l))
        {
            if let Some(file) =
                SourceFile::parse(&path.display().to_string(), language, text.clone())
            {
                let mut tokens = Vec::new();
                tokens_of(&file, 0, &mut tokens);
                hashes.extend(kgram_hashes(&tokens));
            }
        }
        Ok(hashes)
    }
}

/// A submission as the report lists it.
#[derive(Debug, Clone, Serialize)]
pub struct SubmissionSummary {
    /// Its name in the report.
    pub name: String,
    /// The path as given.
    pub path: String,
    /// The language read ("C++", …), or none when it has no parseable source.
    pub language: Option<&'static str>,
    /// Its files, relative to it.
    pub files: Vec<String>,
    /// Normalised tokens.
    pub tokens: usize,
}

/// A run of tokens that both sides share (after normalisation), as lines on each side.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Block {
    /// File of the first submission.
    pub a_file: String,
    /// First and last line in it.
    pub a_lines: (u32, u32),
    /// File of the second submission.
    pub b_file: String,
    /// First and last line in it.
    pub b_lines: (u32, u32),
    /// Tokens in the run.
    pub tokens: usize,
}

/// One pair of submissions and how much of each the other shares.
#[derive(Debug, Clone, Serialize)]
pub struct Pair {
    /// Index of the first submission in [`Similarity::submissions`].
    pub a: usize,
    /// Index of the second.
    pub b: usize,
    /// Share of the first's tokens in code the second shares (0–1).
    pub share_a: f64,
    /// Share of the second's tokens in code the first shares (0–1).
    pub share_b: f64,
    /// The shared runs, longest first.
    pub blocks: Vec<Block>,
}

impl Pair {
    /// The larger of the two shares: how the pairs are ranked.
    pub fn share(&self) -> f64 {
        self.share_a.max(self.share_b)
    }
}

/// The similarity of every pair of submissions, most similar first.
#[derive(Debug, Clone, Serialize)]
pub struct Similarity {
    /// The assignment.
    pub assignment: String,
    /// Tokens per k-gram and winnowing window.
    pub k: usize,
    /// Winnowing window.
    pub window: usize,
    /// The base files whose code was excluded.
    pub base: Vec<String>,
    /// The submissions, in the order given.
    pub submissions: Vec<SubmissionSummary>,
    /// Every pair, most similar first.
    pub pairs: Vec<Pair>,
    /// The submissions' sources, for the side-by-side HTML (not in JSON).
    #[serde(skip)]
    pub sources: Vec<Vec<(String, String)>>,
}

/// Compares every pair of `submissions`, excluding code found in the `base` files.
pub fn compare(
    assignment: &str,
    submissions: &[PathBuf],
    base: &[PathBuf],
) -> anyhow::Result<Similarity> {
    for path in submissions {
        if std::fs::symlink_metadata(path).is_err() {
            anyhow::bail!("cannot read submission {}", path.display());
        }
    }
    let loaded: Vec<Fingerprinted> = submissions.iter().map(|p| Fingerprinted::load(p)).collect();
    compare_loaded(assignment, loaded, base)
}

/// [`compare`] for submissions already read (archives unpacked by the caller).
pub fn compare_loaded(
    assignment: &str,
    loaded: Vec<Fingerprinted>,
    base: &[PathBuf],
) -> anyhow::Result<Similarity> {
    let mut languages: Vec<SourceLanguage> = loaded.iter().filter_map(|s| s.language).collect();
    languages.sort_by_key(|l| l.name());
    languages.dedup();
    let mut excluded: HashSet<u64> = HashSet::new();
    for path in base {
        excluded.extend(Fingerprinted::base_hashes(path, &languages)?);
    }
    // Fingerprints common to much of the class are the assignment's, not a pair's.
    if loaded.len() >= COMMON_MIN_SUBMISSIONS {
        let mut counts: HashMap<u64, usize> = HashMap::new();
        for submission in &loaded {
            for hash in submission.fingerprints.keys() {
                *counts.entry(*hash).or_default() += 1;
            }
        }
        let limit = (loaded.len() as f64 * COMMON_SHARE).floor() as usize;
        excluded.extend(
            counts
                .into_iter()
                .filter(|(_, n)| *n > limit)
                .map(|(h, _)| h),
        );
    }
    let mut pairs = Vec::new();
    for a in 0..loaded.len() {
        for b in a + 1..loaded.len() {
            if loaded[a].language.is_some() && loaded[a].language == loaded[b].language {
                pairs.push(compare_pair(&loaded, a, b, &excluded));
            }
        }
    }
    pairs.sort_by(|x, y| {
        y.share()
            .total_cmp(&x.share())
            .then(
                y.share_a
                    .min(y.share_b)
                    .total_cmp(&x.share_a.min(x.share_b)),
            )
            .then((x.a, x.b).cmp(&(y.a, y.b)))
    });
    Ok(Similarity {
        assignment: assignment.to_string(),
        k: K,
        window: WINDOW,
        base: base.iter().map(|p| p.display().to_string()).collect(),
        submissions: loaded
            .iter()
            .map(|s| SubmissionSummary {
                name: s.name.clone(),
                path: s.path.display().to_string(),
                language: s.language.map(SourceLanguage::name),
                files: s.program.files.iter().map(|f| f.path.clone()).collect(),
                tokens: s.tokens.len(),
            })
            .collect(),
        pairs,
        sources: loaded
            .iter()
            .map(|s| {
                s.program
                    .files
                    .iter()
                    .map(|f| (f.path.clone(), f.text.clone()))
                    .collect()
            })
            .collect(),
    })
}

fn compare_pair(loaded: &[Fingerprinted], a: usize, b: usize, excluded: &HashSet<u64>) -> Pair {
    let (left, right) = (&loaded[a], &loaded[b]);
    let mut covered_a = vec![false; left.tokens.len()];
    let mut covered_b = vec![false; right.tokens.len()];
    let mut seeds: Vec<(usize, usize)> = Vec::new();
    for (hash, positions_a) in &left.fingerprints {
        if excluded.contains(hash) {
            continue;
        }
        let Some(positions_b) = right.fingerprints.get(hash) else {
            continue;
        };
        // Code repeated many times over on both sides is boilerplate, and would make the pair
        // quadratic in it.
        if positions_a.len() * positions_b.len() > MAX_SEEDS_PER_FINGERPRINT {
            continue;
        }
        for &pa in positions_a {
            for &pb in positions_b {
                seeds.push((pa as usize, pb as usize));
            }
        }
    }
    seeds.sort_unstable();
    // Each shared fingerprint is extended to the longest run of equal tokens around it
    // (within one file on each side); runs already found are not found again.
    let mut blocks: Vec<(usize, usize, usize)> = Vec::new();
    // Runs by diagonal (pa − pb): a seed inside a run found already lies on its diagonal.
    let mut by_diagonal: HashMap<isize, Vec<(usize, usize)>> = HashMap::new();
    for (pa, pb) in seeds {
        let diagonal = pa as isize - pb as isize;
        let inside = by_diagonal.get(&diagonal).is_some_and(|runs| {
            runs.iter()
                .any(|&(start, len)| pa >= start && pa < start + len)
        });
        if inside {
            continue;
        }
        let same = |i: usize, j: usize| {
            left.tokens[i].kind == right.tokens[j].kind
                && left.tokens[i].file == left.tokens[pa].file
                && right.tokens[j].file == right.tokens[pb].file
        };
        let mut start = 0;
        while pa > start && pb > start && same(pa - start - 1, pb - start - 1) {
            start += 1;
        }
        let mut end = 0;
        while pa + end < left.tokens.len()
            && pb + end < right.tokens.len()
            && same(pa + end, pb + end)
        {
            end += 1;
        }
        let len = start + end;
        if len >= K {
            blocks.push((pa - start, pb - start, len));
            by_diagonal
                .entry(diagonal)
                .or_default()
                .push((pa - start, len));
        }
    }
    for &(sa, sb, len) in &blocks {
        covered_a[sa..sa + len].iter_mut().for_each(|c| *c = true);
        covered_b[sb..sb + len].iter_mut().for_each(|c| *c = true);
    }
    blocks.sort_by(|x, y| y.2.cmp(&x.2).then(x.0.cmp(&y.0)));
    let share = |covered: &[bool]| {
        if covered.is_empty() {
            0.0
        } else {
            covered.iter().filter(|c| **c).count() as f64 / covered.len() as f64
        }
    };
    let file_name = |s: &Fingerprinted, token: &Token| {
        s.program
            .files
            .get(token.file as usize)
            .map_or_else(String::new, |f| f.path.clone())
    };
    Pair {
        a,
        b,
        share_a: share(&covered_a),
        share_b: share(&covered_b),
        blocks: blocks
            .iter()
            .map(|&(sa, sb, len)| {
                let (first_a, last_a) = (&left.tokens[sa], &left.tokens[sa + len - 1]);
                let (first_b, last_b) = (&right.tokens[sb], &right.tokens[sb + len - 1]);
                Block {
                    a_file: file_name(left, first_a),
                    a_lines: (first_a.line, last_a.line),
                    b_file: file_name(right, first_b),
                    b_lines: (first_b.line, last_b.line),
                    tokens: len,
                }
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(path: &str, text: &str) -> Vec<u64> {
        let language = SourceLanguage::of(Path::new(path)).expect("language");
        let file = SourceFile::parse(path, language, text.into()).expect("parses");
        let mut out = Vec::new();
        tokens_of(&file, 0, &mut out);
        out.iter().map(|t| t.kind).collect()
    }

    #[test]
    fn renaming_reformatting_and_comments_leave_the_tokens_unchanged() {
        let original = tokens(
            "a.cpp",
            "int total(int n) { int s = 0; for (int i = 0; i < n; i++) s += i; return s; }",
        );
        let disguised = tokens(
            "b.cpp",
            "// sums\nint  sum_up( int count )\n{\n    int acc = 10;   /* start */\n    for (int k = 1; k < count; k++)\n        acc += k;\n    return acc;\n}\n",
        );
        assert_eq!(original, disguised);
        let other = tokens(
            "c.cpp",
            "int total(int n) { int s = 0; while (n > 0) s += n--; return s; }",
        );
        assert_ne!(original, other);
    }

    #[test]
    fn deeply_nested_code_does_not_overflow_the_stack() {
        let depth = 50_000;
        let text = format!(
            "int main() {{ return {}1{}; }}",
            "(".repeat(depth),
            ")".repeat(depth)
        );
        let found = tokens("deep.cpp", &text);
        assert!(found.len() > depth, "{}", found.len());
    }

    #[test]
    fn winnowing_keeps_a_fingerprint_in_every_window() {
        let hashes: Vec<u64> = (0..100u64).map(|i| (i * 7919) % 101).collect();
        let selected = winnow(&hashes);
        let positions: Vec<usize> = selected.iter().map(|(_, p)| *p as usize).collect();
        for start in 0..=hashes.len() - WINDOW {
            assert!(
                positions
                    .iter()
                    .any(|p| (start..start + WINDOW).contains(p)),
                "window {start}"
            );
        }
        assert!(
            selected.len() < hashes.len() / 2,
            "{} of {}",
            selected.len(),
            hashes.len()
        );
    }
}
