//! BASIC strings are code page 437 bytes, as on the IBM PC. Text crosses the
//! sandbox as Unicode and is mapped here, so `LEN`, `ASC`, `CHR$` and `MID$`
//! count characters the way GW-BASIC does, and `CHR$(196)` prints `─`. A listing
//! typed into a chat holds characters code page 437 lacks (`™`): each is kept
//! as one character of its own, with a code above 255 ([`Ch`]), so it prints
//! as it was typed.

/// One character of a BASIC string: 0-255 its code page 437 code, from
/// [`WIDE`] up a Unicode character code page 437 lacks (its code point plus
/// `WIDE`, so none collides with a code page 437 code).
pub(crate) type Ch = u32;

/// Where the codes of characters outside code page 437 start.
pub(crate) const WIDE: Ch = 0x100;

const HIGH: [char; 128] = [
    'Ç', 'ü', 'é', 'â', 'ä', 'à', 'å', 'ç', 'ê', 'ë', 'è', 'ï', 'î', 'ì', 'Ä', 'Å', //
    'É', 'æ', 'Æ', 'ô', 'ö', 'ò', 'û', 'ù', 'ÿ', 'Ö', 'Ü', '¢', '£', '¥', '₧', 'ƒ', //
    'á', 'í', 'ó', 'ú', 'ñ', 'Ñ', 'ª', 'º', '¿', '⌐', '¬', '½', '¼', '¡', '«', '»', //
    '░', '▒', '▓', '│', '┤', '╡', '╢', '╖', '╕', '╣', '║', '╗', '╝', '╜', '╛', '┐', //
    '└', '┴', '┬', '├', '─', '┼', '╞', '╟', '╚', '╔', '╩', '╦', '╠', '═', '╬', '╧', //
    '╨', '╤', '╥', '╙', '╘', '╒', '╓', '╫', '╪', '┘', '┌', '█', '▄', '▌', '▐', '▀', //
    'α', 'ß', 'Γ', 'π', 'Σ', 'σ', 'µ', 'τ', 'Φ', 'Θ', 'Ω', 'δ', '∞', 'φ', 'ε', '∩', //
    '≡', '±', '≥', '≤', '⌠', '⌡', '÷', '≈', '°', '∙', '·', '√', 'ⁿ', '²', '■', '\u{a0}',
];

/// The character a code shows as.
pub(crate) fn to_char(code: Ch) -> char {
    match code {
        0..=127 => char::from(code as u8),
        128..=255 => HIGH[(code - 128) as usize],
        _ => char::from_u32(code - WIDE).unwrap_or(char::REPLACEMENT_CHARACTER),
    }
}

/// The code for a character: its code page 437 code, or past 255 for one
/// code page 437 lacks.
pub(crate) fn to_code(c: char) -> Ch {
    if c.is_ascii() {
        return Ch::from(c);
    }
    match HIGH.iter().position(|&h| h == c) {
        Some(index) => 128 + index as Ch,
        None => WIDE + Ch::from(c),
    }
}

/// Text to BASIC characters.
pub(crate) fn encode(text: &str) -> Vec<Ch> {
    text.chars().map(to_code).collect()
}

/// BASIC characters to text.
pub(crate) fn decode(codes: &[Ch]) -> String {
    codes.iter().map(|&code| to_char(code)).collect()
}

/// Bytes (ASCII text, `MKI$`'s bytes) as BASIC characters.
pub(crate) fn from_bytes(bytes: &[u8]) -> Vec<Ch> {
    bytes.iter().map(|&b| Ch::from(b)).collect()
}

/// BASIC characters as bytes, for what reads numbers and binary formats: a
/// character past code page 437 is no digit and no byte, so it becomes 255.
pub(crate) fn to_bytes(codes: &[Ch]) -> Vec<u8> {
    codes
        .iter()
        .map(|&code| u8::try_from(code).unwrap_or(u8::MAX))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_page_437_code_round_trips() {
        for code in 0..=255 {
            assert_eq!(to_code(to_char(code)), code);
        }
    }

    #[test]
    fn characters_outside_code_page_437_are_kept_one_each() {
        let codes = encode("Jürgen™🐉");
        assert_eq!(codes[..6], from_bytes(b"J\x81rgen")[..]);
        assert_eq!(codes[6..], [WIDE + 0x2122, WIDE + 0x1F409]);
        assert_eq!(decode(&codes), "Jürgen™🐉");
        assert_eq!(decode(&[0xC4, 0xC4]), "──");
    }
}
