//! `guoxiang explain FEN MOVE [--lang zh|en] [--json]`: is the move legal here, and if not, why?
//!
//! MOVE is a from→to move in UCI form (`e2e4`, `e7e8q`, castling as `e1g1` or `e1h1`), which can be explained
//! whatever it is; SAN (`Nf3`, `马f3`) is accepted too, and an illegal SAN gets the SAN reader's reason.

use crate::input;
use guoxiang_core::{Explanation, Lang, Position};
use serde_json::json;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// The position (FEN or `startpos`).
    fen: String,
    /// The move: UCI (`e2e4`, `e7e8q`) or SAN (`Nf3`, `马f3`).
    #[arg(name = "MOVE")]
    mv: String,
    /// Language of the explanation: zh (简体中文) or en.
    #[arg(long, default_value = "zh")]
    lang: String,
    /// Answer as one JSON object.
    #[arg(long)]
    json: bool,
}

pub fn run(a: Args) -> Result<ExitCode, String> {
    let lang = Lang::parse(&a.lang).ok_or_else(|| format!("--lang '{}': expected zh or en", a.lang))?;
    let pos = input::position(&a.fen, false)?;
    let answer = explain(&pos, a.mv.trim(), lang)?;
    if a.json {
        println!("{}", answer.json);
    } else {
        println!("{}", answer.text);
    }
    Ok(if answer.legal { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

struct Answer {
    legal: bool,
    text: String,
    json: serde_json::Value,
}

fn legal(pos: &Position, m: guoxiang_core::Move, lang: Lang) -> Answer {
    let (uci, san) = (pos.uci(m), pos.san(m));
    let text = match lang {
        Lang::Zh => format!("合法：{uci}（{}）", pos.san_zh(m)),
        Lang::En => format!("legal: {uci} ({san})"),
    };
    Answer {
        legal: true,
        text,
        json: json!({ "legal": true, "uci": uci, "san": san, "san_zh": pos.san_zh(m), "fen_after": pos.after(m).fen() }),
    }
}

fn explain(pos: &Position, mv: &str, lang: Lang) -> Result<Answer, String> {
    let illegal_word = match lang {
        Lang::Zh => "不合法",
        Lang::En => "illegal",
    };
    match pos.explain_uci(mv) {
        Ok(Explanation::Legal(m)) => Ok(legal(pos, m, lang)),
        Ok(Explanation::Illegal(reason)) => {
            let msg = reason.message(lang);
            let squares: Vec<String> = reason.squares().iter().map(|s| s.to_string()).collect();
            Ok(Answer {
                legal: false,
                text: format!("{illegal_word} [{}]: {msg}", reason.code()),
                json: json!({ "legal": false, "code": reason.code(), "reason": msg, "squares": squares }),
            })
        }
        // Not from→to text: try SAN, whose reader has its own reasons for illegal SAN.
        Err(uci_err) => match pos.parse_san(mv) {
            Ok(m) => Ok(legal(pos, m, lang)),
            Err(guoxiang_core::SanError::Parse(_)) => Err(format!("'{mv}' is neither a UCI move ({uci_err}) nor SAN")),
            Err(e) => {
                let msg = e.message(lang);
                Ok(Answer {
                    legal: false,
                    text: format!("{illegal_word}: {msg}"),
                    json: json!({ "legal": false, "code": "san", "reason": msg, "squares": [] }),
                })
            }
        },
    }
}
