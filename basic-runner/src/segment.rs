//! GW-BASIC's data segment, as `FRE` reports it: what the program text, the
//! variables and the arrays take in GW-BASIC's one 64 KiB segment, so that the
//! string space left beside them is as large as GW-BASIC's.
//!
//! GW-BASIC 3.23 starts with 60300 bytes free (its segment of 65534 bytes less
//! its workspace, three file blocks of 128-byte records and a 512-byte stack);
//! the program text, then the scalar variables, then the arrays grow up from the
//! bottom of that space, and the strings grow down from its top. The sizes below
//! are those of GW-BASIC's tokenized text and variable tables (Microsoft's
//! published source; PC-BASIC reports the same figures).

use crate::lexer;
use crate::number::NumTy;

/// `FRE(0)` of GW-BASIC 3.23 with no program.
pub(crate) const FREE_AT_START: usize = 60300;

/// The top of GW-BASIC 3.23's segment (`TOPMEM`), also the highest `CLEAR`
/// may set (`MAXMEM`), and its stack's bytes, until a `CLEAR` sets them.
pub(crate) const SEGMENT_TOP: usize = 65534;
pub(crate) const STACK_AT_START: usize = 512;

/// Where the variables start with no program (`VARTAB`): below the stack
/// (`MEMSIZ` is 2 bytes under its bottom) lie the bytes free.
const VARIABLES_AT_START: usize = SEGMENT_TOP - STACK_AT_START - 2 - FREE_AT_START;

/// `CLEAR` refuses a stack of this many bytes or fewer: `2*NUMLEV+20`, with
/// `NUMLEV` 110 (OEM.H).
const LEAST_STACK: usize = 2 * 110 + 20;

/// What [`FREE_AT_START`] becomes once `CLEAR` sets the segment's top and its
/// stack's size, or `None` where `CLEAR` (BIMISC.ASM, `CLEART`) says Out of
/// memory: a stack too small, larger than the segment, or leaving the program
/// text (`VARTAB`) less than 20 bytes of breathing room below it.
pub(crate) fn free_with_sizes(top: usize, stack: usize, text_bytes: usize) -> Option<usize> {
    if stack <= LEAST_STACK {
        return None;
    }
    let bottom = top.checked_sub(stack)?;
    if VARIABLES_AT_START + text_bytes + 20 >= bottom {
        return None;
    }
    Some(bottom - 2 - VARIABLES_AT_START)
}

/// Bytes the program text takes: each line's link, number, tokens and
/// terminating 0 (the text's leading and closing zeros are already counted in
/// [`FREE_AT_START`]).
pub(crate) fn program_bytes<'a>(lines: impl Iterator<Item = &'a Vec<char>>) -> usize {
    lines.map(|text| 5 + line_bytes(text)).sum()
}

/// Bytes of a scalar variable's entry: type, two name characters, the count of
/// further characters, those characters, and the value (a string's is its
/// 3-byte descriptor; its characters are in the string space).
pub(crate) fn scalar_bytes(name: &str, value: usize) -> usize {
    entry_bytes(name) + value
}

/// Bytes of an array: its entry as a scalar's, the length word, the count of
/// dimensions, a word per dimension, and the elements.
pub(crate) fn array_bytes(name: &str, dims: usize, elements: usize, value: usize) -> usize {
    entry_bytes(name) + 3 + 2 * dims + elements.saturating_mul(value)
}

/// Bytes of one value of a numeric type.
pub(crate) fn num_bytes(ty: NumTy) -> usize {
    match ty {
        NumTy::Int => 2,
        NumTy::Sng => 4,
        NumTy::Dbl => 8,
    }
}

/// A string's descriptor: its length and the address of its characters.
pub(crate) const STR_DESCRIPTOR: usize = 3;

/// `name` holds its type sign: `A$`, `AB!`, `LONGER%`.
fn entry_bytes(name: &str) -> usize {
    let letters = name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '.');
    1 + letters.count().max(2) + 1
}

/// Keywords GW-BASIC stores as two bytes (a prefix byte and the token).
const TWO_BYTE_KEYWORDS: &[&str] = &[
    "ABS", "ASC", "ATN", "CDBL", "CHAIN", "CHDIR", "CHR$", "CINT", "CIRCLE", "COM", "COMMON",
    "COS", "CSNG", "CVD", "CVI", "CVS", "DATE$", "DRAW", "ENVIRON", "EOF", "ERDEV", "EXP", "FIELD",
    "FILES", "FIX", "FRE", "GET", "HEX$", "INP", "INT", "IOCTL", "KILL", "LEFT$", "LEN", "LOC",
    "LOF", "LOG", "LPOS", "LSET", "MID$", "MKD$", "MKDIR", "MKI$", "MKS$", "NAME", "OCT$", "PAINT",
    "PALETTE", "PCOPY", "PEEK", "PEN", "PLAY", "PMAP", "POS", "PUT", "RESET", "RIGHT$", "RMDIR",
    "RND", "RSET", "SGN", "SHELL", "SIN", "SPACE$", "SQR", "STICK", "STR$", "STRIG", "SYSTEM",
    "TAN", "TIME$", "TIMER", "VAL", "VIEW", "WINDOW",
];

/// Keywords after which a number is a line number (a 3-byte constant however small).
const LINE_NUMBER_KEYWORDS: &[&str] = &[
    "GOTO", "GOSUB", "THEN", "ELSE", "RESTORE", "RESUME", "RUN", "ERL", "LIST", "LLIST", "DELETE",
    "RENUM", "EDIT", "AUTO", "RETURN",
];

/// Bytes of one line's text (after its number) once GW-BASIC has tokenized it:
/// keywords and operators as tokens, numbers as binary constants, names,
/// blanks, strings, comments and `DATA` as their characters.
fn line_bytes(text: &[char]) -> usize {
    let mut bytes = 0;
    let mut at = 0;
    // a number here is a line number: after GOTO and friends, and in their lists
    let mut line_numbers = false;
    while let Some(&c) = text.get(at) {
        match c {
            '"' => {
                let end = text
                    .iter()
                    .skip(at + 1)
                    .position(|&c| c == '"')
                    .map_or(text.len(), |p| at + 1 + p + 1);
                bytes += end - at;
                at = end;
            }
            // stored as `:REM'`
            '\'' => return bytes + 3 + (text.len() - at - 1),
            '0'..='9' | '.' => {
                let (len, size) = number_bytes(text.get(at..).unwrap_or_default(), line_numbers);
                bytes += size;
                at += len;
            }
            '&' => {
                at += 1;
                if text
                    .get(at)
                    .is_some_and(|c| matches!(c, 'H' | 'h' | 'O' | 'o'))
                {
                    at += 1;
                }
                while text.get(at).is_some_and(char::is_ascii_hexdigit) {
                    at += 1;
                }
                bytes += 3;
            }
            c if c.is_ascii_alphabetic() => {
                let mut end = at;
                while text
                    .get(end)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || *c == '.')
                {
                    end += 1;
                }
                let run: String = text
                    .get(at..end)
                    .unwrap_or_default()
                    .iter()
                    .map(char::to_ascii_uppercase)
                    .collect();
                let with_dollar = format!("{run}$");
                let is_fn = run.starts_with("FN");
                let keyword = if text.get(end) == Some(&'$') && lexer::is_keyword(&with_dollar) {
                    end += 1;
                    Some(with_dollar)
                } else if lexer::is_keyword(&run) {
                    Some(run)
                } else if run == "GO" {
                    // `GO TO` (any blanks) and `GO SUB` (one) are crunched to
                    // the GOTO and GOSUB tokens, as PC-BASIC's tokeniser has it
                    go_keyword(text, &mut end)
                } else {
                    None
                };
                if keyword.is_none() && is_fn {
                    // the FN token, then the function's name
                    bytes += 1;
                    at += 2;
                    continue;
                }
                let Some(keyword) = keyword else {
                    // a name, with its type sign
                    if text
                        .get(end)
                        .is_some_and(|c| matches!(c, '$' | '%' | '!' | '#'))
                    {
                        end += 1;
                    }
                    bytes += end - at;
                    at = end;
                    line_numbers = false;
                    continue;
                };
                at = end;
                match keyword.as_str() {
                    "REM" => return bytes + 1 + (text.len() - at),
                    "DATA" => {
                        bytes += 1;
                        let mut quoted = false;
                        while let Some(&c) = text.get(at) {
                            if c == ':' && !quoted {
                                break;
                            }
                            quoted ^= c == '"';
                            bytes += 1;
                            at += 1;
                        }
                    }
                    // stored as `:ELSE`
                    "ELSE" => bytes += 2,
                    // no token of its own: INPUT's, then the `$`
                    "INPUT$" => bytes += 2,
                    // stored as `WHILE+` (GW-BASIC's cruncher adds the `+`
                    // token; PC-BASIC's tokeniser does the same)
                    "WHILE" => bytes += 2,
                    // `TAB(` and `SPC(` are one token with their parenthesis
                    "TAB" | "SPC" if text.get(at) == Some(&'(') => {
                        bytes += 1;
                        at += 1;
                    }
                    _ if TWO_BYTE_KEYWORDS.contains(&keyword.as_str()) => bytes += 2,
                    _ => bytes += 1,
                }
                line_numbers = LINE_NUMBER_KEYWORDS.contains(&keyword.as_str());
                continue;
            }
            _ => {
                bytes += 1;
                at += 1;
            }
        }
        // a list of line numbers goes on past its commas and blanks
        line_numbers &= matches!(c, '0'..='9' | ',' | ' ');
    }
    bytes
}

/// `GO` then blanks then `TO` or `SUB` (after one blank) as the keyword it
/// is crunched to; `end` moves past it.
fn go_keyword(text: &[char], end: &mut usize) -> Option<String> {
    let blanks = text
        .get(*end..)
        .unwrap_or_default()
        .iter()
        .take_while(|c| **c == ' ')
        .count();
    let rest: String = text
        .get(*end + blanks..)
        .unwrap_or_default()
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == '.')
        .map(char::to_ascii_uppercase)
        .collect();
    let keyword = match rest.as_str() {
        "TO" if blanks > 0 => "GOTO",
        "SUB" if blanks == 1 => "GOSUB",
        _ => return None,
    };
    *end += blanks + rest.len();
    Some(keyword.to_string())
}

/// The characters a number takes in the text and the bytes of its constant.
fn number_bytes(text: &[char], line_number: bool) -> (usize, usize) {
    let mut len = 0;
    let mut digits = String::new();
    let mut fraction = false;
    while let Some(&c) = text.get(len) {
        if c.is_ascii_digit() || (c == '.' && !fraction) {
            fraction |= c == '.';
            digits.push(c);
            len += 1;
        } else {
            break;
        }
    }
    if line_number && !fraction {
        return (len, 3);
    }
    let mut double = false;
    let mut exponent = false;
    if let Some(e @ ('E' | 'e' | 'D' | 'd')) = text.get(len).copied() {
        let sign = usize::from(matches!(text.get(len + 1), Some('+' | '-')));
        if text.get(len + 1 + sign).is_some_and(char::is_ascii_digit) {
            exponent = true;
            double = matches!(e, 'D' | 'd');
            len += 1 + sign;
            while text.get(len).is_some_and(char::is_ascii_digit) {
                len += 1;
            }
        }
    }
    let suffix = text.get(len).copied();
    if matches!(suffix, Some('%' | '!' | '#')) {
        len += 1;
    }
    let significant = digits.trim_start_matches(['0', '.']).len();
    let size = match suffix {
        Some('#') => 9,
        Some('!') => 5,
        _ if double || significant > 7 => 9,
        _ if fraction || exponent => 5,
        _ => match digits.parse::<u32>() {
            Ok(0..=9) => 1,
            Ok(10..=255) => 2,
            Ok(256..=32767) => 3,
            _ => 5,
        },
    };
    (len, size)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size(line: &str) -> usize {
        line_bytes(&line.chars().collect::<Vec<_>>())
    }

    #[test]
    fn lines_take_the_bytes_gw_basic_tokenizes_them_to() {
        // (text after the line number, bytes as GW-BASIC stores them: PC-BASIC's
        // FRE(0) with and without the line)
        let cases = [
            ("PRINT FRE(0)", 7),
            ("X=1", 3),
            ("A$=\"HELLO\"", 10),
            ("GOTO 10", 5),
            ("ON X GOTO 10, 20", 14),
            ("A=1.5", 7),
            ("A=300", 5),
            ("A=100000", 7),
            ("A=12345678", 11),
            ("A=1E5", 7),
            ("A=&H10", 5),
            ("A=.5", 7),
            ("A#=1#", 12),
            ("A=10:B=255:C=256", 15),
            ("PRINT \"A\" ' note", 14),
            ("REM hi", 4),
            ("DATA 1,2:PRINT", 7),
            ("IF X THEN 10 ELSE 20", 16),
            ("B$=LEFT$(A$,1)", 11),
            ("FOR I=1 TO 10 STEP 2", 14),
            ("X=-5:Y=X^2", 10),
            ("FNA(1)", 5),
            ("RETURN 10", 5),
            ("A$ = \"X\" + B$ ", 14),
            ("LPRINT", 1),
            ("WHILE I<2: I=I+1: WEND", 16),
            ("PRINT TAB(3);SPC(2);", 10),
            ("GO TO 10", 5),
            ("GO  TO 10", 5),
            ("GO SUB 10", 5),
        ];
        for (text, bytes) in cases {
            assert_eq!(size(text), bytes, "{text}");
        }
    }

    #[test]
    fn clear_sizes_move_the_top_of_the_free_bytes() {
        assert_eq!(
            free_with_sizes(SEGMENT_TOP, STACK_AT_START, 0),
            Some(FREE_AT_START)
        );
        // PC-BASIC: CLEAR ,30000 takes 35534 off, CLEAR ,,1000 488
        assert_eq!(free_with_sizes(30000, 512, 0), Some(FREE_AT_START - 35534));
        assert_eq!(
            free_with_sizes(SEGMENT_TOP, 1000, 0),
            Some(FREE_AT_START - 488)
        );
        assert_eq!(free_with_sizes(SEGMENT_TOP, 240, 0), None);
        assert_eq!(
            free_with_sizes(SEGMENT_TOP, 241, 0),
            Some(FREE_AT_START + 271)
        );
        assert_eq!(free_with_sizes(1000, 512, 0), None);
        assert_eq!(free_with_sizes(400, 512, 0), None);
        // 20 bytes of room above the text, and the 2 under the stack
        let top = VARIABLES_AT_START + 100 + 21 + 512;
        assert_eq!(free_with_sizes(top, 512, 100), Some(119));
        assert_eq!(free_with_sizes(top - 1, 512, 100), None);
    }

    #[test]
    fn entries_are_sized_as_gw_basic_sizes_them() {
        assert_eq!(scalar_bytes("X!", 4), 8);
        assert_eq!(scalar_bytes("A$", STR_DESCRIPTOR), 7);
        assert_eq!(scalar_bytes("ABCDEF#", 8), 16);
        assert_eq!(array_bytes("B%", 2, 121, 2), 253);
        assert_eq!(array_bytes("C!", 1, 101, 4), 413);
    }
}
