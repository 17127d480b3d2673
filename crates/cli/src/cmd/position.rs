//! `guoxiang position FEN [--json] [--evidence]`; FEN `-` reads one FEN per line from standard input.

use crate::input;
use guoxiang_core::{MateVerdict, Position};
use serde_json::json;
use std::io::{BufRead, Write};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// A FEN, `startpos`, or `-` to read one FEN per line from standard input.
    fen: String,
    /// One JSON object per position (per line).
    #[arg(long)]
    json: bool,
    /// Accept odd-but-playable positions (impossible checks, too many pieces, …).
    #[arg(long)]
    relaxed: bool,
    /// With `--json`: add `mate_line`, per side, a series of legal moves (UCI) that ends with that side giving
    /// checkmate (`null` when the side cannot mate or none was found).
    #[arg(long)]
    evidence: bool,
}

pub fn run(a: Args) -> Result<ExitCode, String> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if a.fen == "-" {
        let mut bad = 0usize;
        for (i, line) in std::io::stdin().lock().lines().enumerate() {
            let line = line.map_err(|e| format!("standard input: {e}"))?;
            if line.trim().is_empty() {
                continue;
            }
            match input::position(&line, a.relaxed) {
                Ok(pos) => emit(&mut out, &pos, a.json, a.evidence),
                Err(e) => {
                    bad += 1;
                    if a.json {
                        let v = json!({ "line": i + 1, "input": line, "error": e });
                        let _ = writeln!(out, "{v}");
                    } else {
                        eprintln!("line {}: {e}", i + 1);
                    }
                }
            }
        }
        return Ok(if bad == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) });
    }
    let pos = input::position(&a.fen, a.relaxed)?;
    emit(&mut out, &pos, a.json, a.evidence);
    Ok(ExitCode::SUCCESS)
}

/// The position's status as far as one position can tell (repetitions need the game's history).
pub fn status(pos: &Position) -> &'static str {
    if pos.is_checkmate() {
        "checkmate"
    } else if pos.is_stalemate() {
        "stalemate"
    } else if pos.is_dead_position() {
        "dead_position"
    } else if pos.halfmoves() >= 150 {
        "seventy_five_moves"
    } else {
        "ongoing"
    }
}

/// Draw claims the side to move could make from this position alone.
pub fn claimable(pos: &Position) -> Vec<&'static str> {
    let mut c = Vec::new();
    if status(pos) == "ongoing" {
        if pos.halfmoves() >= 100 {
            c.push("fifty_moves");
        } else if pos.halfmoves() == 99 && pos.legal_moves().iter().any(|&m| !pos.is_zeroing(m)) {
            // Article 9.3.1: claim by writing a move that completes 50 moves without capture or pawn move.
            c.push("fifty_moves_with_move");
        }
    }
    c
}

/// Whether the position is dead (Article 5.2.2) from both sides' full verdicts: `true`, `false` or `"unknown"`, and
/// the reason in words.
fn dead_json(v: &[MateVerdict; 2]) -> (serde_json::Value, String) {
    let name = |i: usize| if i == 0 { "white" } else { "black" };
    if let Some(i) = v.iter().position(|x| matches!(x, MateVerdict::Can(_))) {
        return (json!(false), format!("{} can mate", name(i)));
    }
    match (&v[0], &v[1]) {
        (MateVerdict::Cannot(w), MateVerdict::Cannot(b)) => {
            (json!(true), format!("neither side can mate (white: {}, black: {})", w.code(), b.code()))
        }
        _ => {
            let open: Vec<&str> = (0..2).filter(|&i| matches!(v[i], MateVerdict::Unknown)).map(name).collect();
            (json!("unknown"), format!("not decided within the search budget for {}", open.join(" and ")))
        }
    }
}

fn reason_json(v: &MateVerdict) -> serde_json::Value {
    match v {
        MateVerdict::Cannot(r) => json!(r.code()),
        _ => serde_json::Value::Null,
    }
}

fn line_json(pos: &Position, v: &MateVerdict) -> serde_json::Value {
    match v {
        MateVerdict::Can(line) => {
            let mut p = pos.clone();
            let mut uci = Vec::with_capacity(line.len());
            for &m in line {
                uci.push(p.uci(m));
                p.play_unchecked(m);
            }
            json!(uci)
        }
        _ => serde_json::Value::Null,
    }
}

fn emit(out: &mut impl Write, pos: &Position, json: bool, evidence: bool) {
    let moves = pos.legal_moves();
    let verdicts = pos.dead_verdict();
    let (dead, dead_reason) = dead_json(&verdicts);
    let mut st = status(pos);
    if st == "ongoing" && dead == json!(true) {
        st = "dead_position";
    }
    if json {
        let legal: Vec<_> = moves.iter().map(|&m| json!({ "uci": pos.uci(m), "san": pos.san(m) })).collect();
        let mut v = json!({
            "fen": pos.fen(),
            "turn": pos.turn().name(),
            "check": pos.is_check(),
            "legal": legal,
            "status": st,
            "claimable": claimable(pos),
            "can_mate": { "white": verdicts[0].can_mate(), "black": verdicts[1].can_mate() },
            "cannot_mate_reason": { "white": reason_json(&verdicts[0]), "black": reason_json(&verdicts[1]) },
            "dead": dead,
            "dead_reason": dead_reason,
            "halfmove_clock": pos.halfmoves(),
            "fullmove_number": pos.fullmoves(),
            "en_passant": pos.ep_square().map(|s| s.to_string()),
            "chess960": pos.is_chess960(),
        });
        if evidence {
            v["mate_line"] = json!({ "white": line_json(pos, &verdicts[0]), "black": line_json(pos, &verdicts[1]) });
        }
        let _ = writeln!(out, "{v}");
    } else {
        let _ = write!(out, "{}", pos.board_string());
        let _ = writeln!(out, "fen       {}", pos.fen());
        let _ = writeln!(out, "turn      {}", pos.turn().name());
        let _ = writeln!(out, "check     {}", pos.is_check());
        let _ = writeln!(out, "status    {st}");
        let claims = claimable(pos);
        let _ = writeln!(out, "claimable {}", if claims.is_empty() { "-".to_string() } else { claims.join(" ") });
        let _ = writeln!(out, "can mate  white {}, black {}", verdicts[0].can_mate(), verdicts[1].can_mate());
        let _ = writeln!(out, "dead      {dead} ({dead_reason})");
        let sans: Vec<String> = moves.iter().map(|&m| pos.san(m)).collect();
        let _ = writeln!(out, "legal     {} {}", moves.len(), sans.join(" "));
    }
}
