//! The built-in table, checked through the public API: every entry is well-formed, reaches its own position and is
//! found again from it, positions are unique, the Chinese names use one word per kind of name, and the openings a
//! club player meets (and every family the Chinese guides list) are there.

use guoxiang_core::{Lang, Move, Position};
use guoxiang_openings::{Opening, all, by_position, classify};
use std::collections::HashMap;

fn line_of(o: &Opening) -> (Position, Vec<Move>) {
    let mut pos = Position::new();
    let mut moves = Vec::new();
    for san in o.san_moves() {
        let m = pos.parse_san(san).unwrap_or_else(|e| panic!("{} ({}): {san}: {e}", o.name_en, o.moves));
        assert_eq!(pos.san(m), san, "{}: {san} is not canonical SAN", o.name_en);
        pos.play_unchecked(m);
        moves.push(m);
    }
    (pos, moves)
}

fn is_han(c: char) -> bool {
    matches!(c, '\u{4E00}'..='\u{9FFF}' | '\u{3400}'..='\u{4DBF}')
}

#[test]
fn the_table_has_a_club_players_worth_of_openings() {
    let n = all().len();
    assert!((250..=400).contains(&n), "{n} entries");
}

#[test]
fn every_entry_is_well_formed() {
    for o in all() {
        let b = o.eco.as_bytes();
        assert!(
            b.len() == 3 && (b'A'..=b'E').contains(&b[0]) && b[1].is_ascii_digit() && b[2].is_ascii_digit(),
            "bad ECO code {:?} for {}",
            o.eco,
            o.name_en
        );
        assert!(!o.name_en.trim().is_empty() && !o.name_zh.trim().is_empty(), "{o:?} lacks a name");
        assert!(!o.name_en.chars().any(is_han), "{}: Chinese in the English name", o.name_en);
        assert!(o.name_zh.chars().any(is_han), "{}: no Chinese in {:?}", o.name_en, o.name_zh);
        assert_eq!(o.name(Lang::En), o.name_en);
        assert_eq!(o.name(Lang::Zh), o.name_zh);
        assert_eq!(o.san_moves().count(), o.plies, "{}: plies", o.name_en);
        assert!(o.plies > 0);
    }
}

#[test]
fn every_entry_reaches_its_position_and_is_found_from_it() {
    let start = Position::new();
    for o in all() {
        let (pos, moves) = line_of(o);
        assert_eq!(pos.epd(), o.epd(), "{}", o.name_en);
        assert_eq!(by_position(&pos), Some(o), "{}", o.name_en);
        // Its own line ends on its own position, so nothing later can outrank it.
        assert_eq!(classify(&start, &moves), Some(o), "{}", o.name_en);
    }
}

#[test]
fn no_position_is_named_twice() {
    let mut seen: HashMap<&str, &Opening> = HashMap::new();
    for o in all() {
        if let Some(first) = seen.insert(o.epd(), o) {
            panic!("{} ({}) and {} ({}) name the same position", first.name_en, first.moves, o.name_en, o.moves);
        }
    }
}

#[test]
fn the_file_is_grouped_by_eco_volume() {
    // Volumes A..E appear in order (codes inside a volume may interleave where a transposition puts a line there).
    let volumes: Vec<u8> = all().iter().map(|o| o.eco.as_bytes()[0]).collect();
    assert!(volumes.is_sorted(), "ECO volumes out of order");
}

#[test]
fn chinese_names_use_one_word_per_kind_of_name() {
    // English word in the name → the Chinese term it must be rendered with.
    let terms: [(&str, &[&str]); 10] = [
        ("Defence", &["防御"]),
        ("Gambit", &["弃兵"]),
        ("Countergambit", &["反弃兵"]),
        ("Counterattack", &["反击"]),
        ("Attack", &["进攻"]),
        ("Opening", &["开局"]),
        ("Game", &["开局"]),
        ("Variation", &["变例", "体系"]),
        ("System", &["体系"]),
        ("Accepted", &["接受"]),
    ];
    let mut problems = Vec::new();
    for o in all() {
        for word in o.name_en.split(|c: char| !c.is_alphanumeric()) {
            for (en, zh) in &terms {
                if word == *en && !zh.iter().any(|t| o.name_zh.contains(t)) {
                    problems.push(format!("{} / {}: {en} should be {zh:?}", o.name_en, o.name_zh));
                }
            }
        }
        if o.name_en.contains("Declined") && !o.name_zh.contains("拒绝") {
            problems.push(format!("{} / {}: Declined should be 拒绝", o.name_en, o.name_zh));
        }
        // Older or regional words we do not use: 布局 (say 开局), 变着/变化 (say 变例), 攻击 (say 进攻).
        for old in ["布局", "变着", "变化", "攻击"] {
            if o.name_zh.contains(old) {
                problems.push(format!("{}: {old} in {}", o.name_en, o.name_zh));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_first_move_is_named() {
    let start = Position::new();
    let mut unnamed = Vec::new();
    for &m in &start.legal_moves() {
        let pos = start.after(m);
        if by_position(&pos).is_none() {
            unnamed.push(start.san(m));
        }
    }
    assert!(unnamed.is_empty(), "first moves without a name: {unnamed:?}");
}

fn zh_names() -> Vec<&'static str> {
    all().iter().map(|o| o.name_zh).collect()
}

#[test]
fn the_families_of_the_chinese_guides_are_there() {
    // The openings the Chinese beginner's guides list (开放性、半开放性、封闭性开局), under the names we use.
    let families = [
        "意大利开局",
        "双马防御",
        "西班牙开局",
        "西西里防御",
        "法兰西防御",
        "皮尔茨防御",
        "阿廖欣防御",
        "卡罗-康防御",
        "后翼弃兵",
        "后翼弃兵拒绝",
        "后翼弃兵接受",
        "后兵开局",
        "后翼印度防御",
        "王翼印度防御",
        "尼姆佐-印度防御",
        "格林菲尔德防御",
        "英国式开局",
        "开放性开局",
        "封闭性开局",
    ];
    let names = zh_names();
    for family in families {
        assert!(names.contains(&family), "no entry named {family}");
    }
}

#[test]
fn the_main_variations_are_there() {
    let wanted = [
        "Sicilian Defence: Najdorf Variation",
        "Sicilian Defence: Dragon Variation",
        "Sicilian Defence: Sveshnikov Variation",
        "Sicilian Defence: Scheveningen Variation",
        "Sicilian Defence: Taimanov Variation",
        "Sicilian Defence: Alapin Variation",
        "Ruy Lopez: Berlin Defence",
        "Ruy Lopez: Marshall Attack",
        "Ruy Lopez: Closed Variation",
        "Ruy Lopez: Open Variation",
        "Ruy Lopez: Exchange Variation",
        "Queen's Gambit Declined",
        "Queen's Gambit Accepted",
        "Slav Defence",
        "Semi-Slav Defence",
        "Semi-Slav Defence: Meran Variation",
        "Nimzo-Indian Defence",
        "Queen's Indian Defence",
        "King's Indian Defence",
        "King's Indian Defence: Classical Variation",
        "Grünfeld Defence",
        "Benoni Defence",
        "Modern Benoni",
        "Dutch Defence",
        "Catalan Opening",
        "English Opening",
        "Réti Opening",
        "London System",
        "Scotch Game",
        "Petrov Defence",
        "Vienna Game",
        "King's Gambit",
        "Pirc Defence",
        "Modern Defence",
        "Alekhine Defence",
        "Scandinavian Defence",
        "Caro-Kann Defence: Advance Variation",
        "Caro-Kann Defence: Classical Variation",
        "French Defence: Winawer Variation",
        "French Defence: Advance Variation",
        "French Defence: Tarrasch Variation",
        "Italian Game: Evans Gambit",
        "Two Knights Defence: Fried Liver Attack",
    ];
    let names: Vec<&str> = all().iter().map(|o| o.name_en).collect();
    let missing: Vec<&str> = wanted.iter().copied().filter(|w| !names.contains(w)).collect();
    assert!(missing.is_empty(), "missing: {missing:?}");
}
