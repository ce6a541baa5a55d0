//! PTX tokens with their source positions.

/// A token kind.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// A name, directive, opcode or register: `ld.global.f32`, `.reg`,
    /// `%r12`, `%tid.x`, `LBB0_2`, `_`.
    Word(String),
    /// A number as written (`42`, `0x1F`, `0f3F800000`, `1.5`).
    Num(String),
    /// A string literal (without quotes).
    Str(String),
    /// Punctuation: `, ; : { } [ ] ( ) < > + - | ! @ =`.
    Punct(char),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub line: u32,
    pub col: u32,
}

/// A lexical error: (line, column, message).
pub type LexError = (u32, u32, String);

fn word_start(c: char) -> bool {
    c.is_ascii_alphabetic() || matches!(c, '_' | '$' | '%' | '.')
}

fn word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.')
}

/// Split PTX text into tokens; comments are dropped.
pub fn lex(src: &str) -> Result<Vec<Token>, LexError> {
    let mut out = Vec::new();
    let chars: Vec<char> = src.chars().collect();
    let (mut i, mut line, mut col) = (0usize, 1u32, 1u32);
    let n = chars.len();
    while i < n {
        let c = chars[i];
        let (tl, tc) = (line, col);
        let adv = |i: &mut usize, k: usize, line: &mut u32, col: &mut u32| {
            for _ in 0..k {
                if chars[*i] == '\n' {
                    *line += 1;
                    *col = 1;
                } else {
                    *col += 1;
                }
                *i += 1;
            }
        };
        if c.is_whitespace() {
            adv(&mut i, 1, &mut line, &mut col);
            continue;
        }
        if c == '/' && i + 1 < n && chars[i + 1] == '/' {
            while i < n && chars[i] != '\n' {
                adv(&mut i, 1, &mut line, &mut col);
            }
            continue;
        }
        if c == '/' && i + 1 < n && chars[i + 1] == '*' {
            adv(&mut i, 2, &mut line, &mut col);
            loop {
                if i + 1 >= n {
                    return Err((tl, tc, "unterminated /* comment".into()));
                }
                if chars[i] == '*' && chars[i + 1] == '/' {
                    adv(&mut i, 2, &mut line, &mut col);
                    break;
                }
                adv(&mut i, 1, &mut line, &mut col);
            }
            continue;
        }
        if c == '"' {
            let mut s = String::new();
            adv(&mut i, 1, &mut line, &mut col);
            loop {
                if i >= n || chars[i] == '\n' {
                    return Err((tl, tc, "unterminated string".into()));
                }
                if chars[i] == '"' {
                    adv(&mut i, 1, &mut line, &mut col);
                    break;
                }
                if chars[i] == '\\' && i + 1 < n {
                    s.push(chars[i + 1]);
                    adv(&mut i, 2, &mut line, &mut col);
                    continue;
                }
                s.push(chars[i]);
                adv(&mut i, 1, &mut line, &mut col);
            }
            out.push(Token { tok: Tok::Str(s), line: tl, col: tc });
            continue;
        }
        if c.is_ascii_digit() {
            let mut s = String::new();
            while i < n {
                let ch = chars[i];
                let exp_sign = matches!(ch, '+' | '-')
                    && !s.starts_with("0x")
                    && !s.starts_with("0X")
                    && !s.starts_with("0f")
                    && !s.starts_with("0F")
                    && !s.starts_with("0d")
                    && !s.starts_with("0D")
                    && s.contains('.')
                    && s.ends_with(['e', 'E']);
                if ch.is_ascii_alphanumeric() || ch == '.' || ch == '_' || exp_sign {
                    s.push(ch);
                    adv(&mut i, 1, &mut line, &mut col);
                } else {
                    break;
                }
            }
            out.push(Token { tok: Tok::Num(s), line: tl, col: tc });
            continue;
        }
        if word_start(c) {
            let mut s = String::new();
            s.push(c);
            adv(&mut i, 1, &mut line, &mut col);
            while i < n && word_char(chars[i]) {
                s.push(chars[i]);
                adv(&mut i, 1, &mut line, &mut col);
            }
            out.push(Token { tok: Tok::Word(s), line: tl, col: tc });
            continue;
        }
        if ",;:{}[]()<>+-|!@=".contains(c) {
            out.push(Token { tok: Tok::Punct(c), line: tl, col: tc });
            adv(&mut i, 1, &mut line, &mut col);
            continue;
        }
        return Err((tl, tc, format!("unexpected character {c:?}")));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_and_positions() {
        let t = lex("\t@%p1 bra LBB0_2; // c\n ld.global.f32 %f1, [%rd3+-8];/* x */ 0f3F800000").unwrap();
        assert_eq!(t[0], Token { tok: Tok::Punct('@'), line: 1, col: 2 });
        assert_eq!(t[1].tok, Tok::Word("%p1".into()));
        assert_eq!(t[3].tok, Tok::Word("LBB0_2".into()));
        assert_eq!(t[5], Token { tok: Tok::Word("ld.global.f32".into()), line: 2, col: 2 });
        assert_eq!(t[9].tok, Tok::Word("%rd3".into()));
        assert_eq!(t[10].tok, Tok::Punct('+'));
        assert_eq!(t[11].tok, Tok::Punct('-'));
        assert_eq!(t[12].tok, Tok::Num("8".into()));
        assert_eq!(t.last().unwrap().tok, Tok::Num("0f3F800000".into()));
        assert!(lex("/* open").is_err());
        assert!(lex("a # b").is_err());
        let e = lex("1.5e-3 .x").unwrap();
        assert_eq!(e[0].tok, Tok::Num("1.5e-3".into()));
    }
}
