// SPDX-License-Identifier: GPL-3.0-or-later
//! A list of players as a teacher pastes it.

use super::Entry;

/// One player of a pasted list: the line it is on (1-based), the name, and the rating written after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListedPlayer {
    pub line: usize,
    pub name: String,
    pub rating: Option<u32>,
}

/// What is wrong with one line of a pasted list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListError {
    pub line: usize,
    pub zh: String,
    pub en: String,
}

impl ListError {
    fn new(line: usize, zh: String, en: String) -> ListError {
        ListError { line, zh: format!("第 {line} 行：{zh}"), en: format!("line {line}: {en}") }
    }
}

/// The most players one list may add.
pub const MAX_LIST: usize = 200;

/// Reads a list of players as a teacher pastes it: one per line, or several on a line separated by commas (`,`
/// `，` `、` `;` `；`); a rating may follow a name after a space (`王小明 1200`). Blank lines are skipped. Every
/// problem is reported with its line: an empty name, a name too long, a rating out of 100–3500, a name twice
/// (letters compared without case), and a player already in `existing`. Answers the good entries and the errors.
pub fn parse_player_list(text: &str, existing: &[Entry]) -> (Vec<ListedPlayer>, Vec<ListError>) {
    let mut out: Vec<ListedPlayer> = Vec::new();
    let mut errors = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        if raw.trim().is_empty() {
            continue;
        }
        let items: Vec<&str> = raw.split([',', '，', '、', ';', '；']).map(str::trim).collect();
        for item in items {
            if item.is_empty() {
                if raw.split([',', '，', '、', ';', '；']).count() > 1 {
                    errors.push(ListError::new(
                        line,
                        "两个逗号之间没有名字".into(),
                        "no name between two commas".into(),
                    ));
                }
                continue;
            }
            let words: Vec<&str> = item.split_whitespace().collect();
            let (name, rating) = match words.split_last() {
                Some((last, rest)) if !rest.is_empty() && last.chars().all(|c| c.is_ascii_digit()) => {
                    match last.parse::<u32>() {
                        Ok(r) if (100..=3500).contains(&r) => (rest.join(" "), Some(r)),
                        _ => {
                            errors.push(ListError::new(
                                line,
                                format!("「{item}」的等级分 {last} 不在 100 到 3500 之间"),
                                format!("{item:?}: the rating {last} is not between 100 and 3500"),
                            ));
                            continue;
                        }
                    }
                }
                _ => (words.join(" "), None),
            };
            if name.chars().count() > 60 {
                errors.push(ListError::new(
                    line,
                    format!("「{name}」太长（名字最多 60 个字符）"),
                    format!("{name:?} is too long (a name has at most 60 characters)"),
                ));
                continue;
            }
            let key = name.to_lowercase();
            if let Some(first) = out.iter().find(|p| p.name.to_lowercase() == key) {
                errors.push(ListError::new(
                    line,
                    format!("「{name}」重复了（第 {} 行已有）", first.line),
                    format!("{name:?} is listed twice (already on line {})", first.line),
                ));
                continue;
            }
            if let Some(p) = existing.iter().find(|p| p.name.to_lowercase() == key) {
                errors.push(ListError::new(
                    line,
                    format!("「{name}」已经是 {} 号棋手", p.no),
                    format!("{name:?} is already player number {}", p.no),
                ));
                continue;
            }
            out.push(ListedPlayer { line, name, rating });
        }
    }
    if out.is_empty() && errors.is_empty() {
        errors.push(ListError { line: 0, zh: "名单是空的".into(), en: "the list is empty".into() });
    }
    if out.len() > MAX_LIST {
        errors.push(ListError {
            line: 0,
            zh: format!("一次最多添加 {MAX_LIST} 名棋手（这里有 {} 名）", out.len()),
            en: format!("at most {MAX_LIST} players can be added at once (this list has {})", out.len()),
        });
    }
    (out, errors)
}
