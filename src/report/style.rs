//! The text report's styling, shared by every section of it (cases, requirements) and by the
//! formats that reuse its feedback without colour.

/// ANSI styling that collapses to plain text when colour is off.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Style {
    /// Whether to emit ANSI escapes at all.
    pub(crate) color: bool,
}

impl Style {
    /// `text` in the ANSI style `code`, or as it is without colour.
    fn paint(self, code: &str, text: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
    /// Green: a passed case.
    pub(crate) fn green(self, text: &str) -> String {
        self.paint("32", text)
    }
    /// Red: lost points, a failure.
    pub(crate) fn red(self, text: &str) -> String {
        self.paint("31", text)
    }
    /// Yellow: a case the grader could not grade.
    pub(crate) fn yellow(self, text: &str) -> String {
        self.paint("33", text)
    }
    /// Bold: a heading.
    pub(crate) fn bold(self, text: &str) -> String {
        self.paint("1", text)
    }
    /// Dim: notes and context of less weight.
    pub(crate) fn dim(self, text: &str) -> String {
        self.paint("2", text)
    }
}
