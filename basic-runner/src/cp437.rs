//! BASIC strings are bytes, as on the IBM PC: code page 437. Text crosses the
//! sandbox as Unicode and is mapped here, so `LEN`, `ASC`, `CHR$` and `MID$`
//! count characters the way GW-BASIC does, and `CHR$(196)` prints `─`.

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

/// The character a byte shows as.
pub(crate) fn to_char(byte: u8) -> char {
    match byte {
        0..=127 => char::from(byte),
        _ => HIGH[usize::from(byte - 128)],
    }
}

/// The byte for a character; characters code page 437 lacks become `?`.
pub(crate) fn to_byte(c: char) -> u8 {
    if c.is_ascii() {
        return c as u8;
    }
    match HIGH.iter().position(|&h| h == c) {
        Some(index) => 128 + index as u8,
        None => b'?',
    }
}

/// Text to BASIC bytes.
pub(crate) fn encode(text: &str) -> Vec<u8> {
    text.chars().map(to_byte).collect()
}

/// BASIC bytes to text.
pub(crate) fn decode(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| to_char(b)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_round_trips() {
        for byte in 0..=255u8 {
            assert_eq!(to_byte(to_char(byte)), byte);
        }
    }

    #[test]
    fn unmappable_characters_become_question_marks() {
        assert_eq!(encode("Jürgen™"), b"J\x81rgen?".to_vec());
        assert_eq!(decode(&[0xC4, 0xC4]), "──");
    }
}
