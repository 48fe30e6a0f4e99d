//! Words as a POSIX shell reads them back: the commands grade prints for a person to run (a
//! replay, the build step it used) quote what a shell would split or expand.

/// A file name as one shell word.
pub fn word(name: &str) -> String {
    if !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-/".contains(c))
    {
        name.to_string()
    } else {
        format!("'{}'", name.replace('\'', "'\\''"))
    }
}

/// Characters of `printf` text at most in one replay command: a report cuts a line of 300.
pub const REPLAY_INLINE_CHARS: usize = 120;

/// The commands that write `content` to the file `name` (its folder made first): one
/// `printf '…' > NAME`, then `printf '…' >> NAME` for each further piece of a long one.
pub fn write_file(name: &str, content: &[u8]) -> Vec<String> {
    let mut commands = Vec::new();
    let file = word(name);
    if let Some(parent) = std::path::Path::new(name)
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
    {
        commands.push(format!("mkdir -p {}", word(&parent.display().to_string())));
    }
    let mut chunks: Vec<String> = vec![String::new()];
    for piece in printf_pieces(content) {
        if chunks
            .last()
            .is_some_and(|c| c.len() + piece.len() > REPLAY_INLINE_CHARS)
        {
            chunks.push(String::new());
        }
        if let Some(chunk) = chunks.last_mut() {
            chunk.push_str(&piece);
        }
    }
    for (index, chunk) in chunks.iter().enumerate() {
        let into = if index == 0 { ">" } else { ">>" };
        commands.push(format!("printf '{chunk}' {into} {file}"));
    }
    commands
}

/// `bytes` as pieces of a single-quoted `printf` format, one per character: newlines as `\n`;
/// `'`, `%` and `\` escaped; control characters, the characters a report would not show as
/// themselves (bidirectional overrides, see `crate::escape`) and bytes that are not UTF-8 as
/// octal escapes, so that the command reaches every report unchanged.
pub fn printf_pieces(bytes: &[u8]) -> Vec<String> {
    let octal = |bytes: &[u8]| {
        bytes
            .iter()
            .map(|b| format!("\\{b:03o}"))
            .collect::<String>()
    };
    let mut pieces = Vec::new();
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            pieces.push(match c {
                '\n' => "\\n".to_string(),
                '\\' => "\\\\".to_string(),
                '%' => "%%".to_string(),
                '\'' => "'\\''".to_string(),
                c if c.is_control()
                    || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{061c}') =>
                {
                    let mut buffer = [0u8; 4];
                    octal(c.encode_utf8(&mut buffer).as_bytes())
                }
                c => c.to_string(),
            });
        }
        if !chunk.invalid().is_empty() {
            pieces.push(octal(chunk.invalid()));
        }
    }
    pieces
}
