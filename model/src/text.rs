//! What any text a person sends may hold, whichever field it is for.

/// The message for a field holding a control character.
pub const CONTROL_CHARACTERS: &str = "Please remove control characters from this field";

/// A character no text field may hold: the C0 controls (NUL, escape, …) but tab, line feed and
/// carriage return, which multi-line fields keep; DEL; and the C1 controls. PostgreSQL refuses a
/// NUL in text outright, and none of them is anything a person means to write.
pub fn is_refused_control(c: char) -> bool {
    c.is_control() && !matches!(c, '\t' | '\n' | '\r')
}

pub fn has_refused_control(text: &str) -> bool {
    text.chars().any(is_refused_control)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c0_del_and_c1_controls_are_refused_but_not_the_line_breaks_or_tabs() {
        for refused in ["a\u{0}b", "\u{1b}[31m", "x\u{7f}", "next\u{85}line", "\u{9f}"] {
            assert!(has_refused_control(refused), "{refused:?}");
        }
        for allowed in ["two\nlines", "crlf\r\n", "a\ttab", "café ½ — ✓", "", "\u{a0}no-break space"] {
            assert!(!has_refused_control(allowed), "{allowed:?}");
        }
    }
}
