//! `guoxiang position FEN [--json]`; FEN `-` reads one FEN per line from standard input.

use crate::input;
use guoxiang_core::{Color, Position};
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
                Ok(pos) => emit(&mut out, &pos, a.json),
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
    emit(&mut out, &pos, a.json);
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

fn emit(out: &mut impl Write, pos: &Position, json: bool) {
    let moves = pos.legal_moves();
    if json {
        let legal: Vec<_> = moves.iter().map(|&m| json!({ "uci": pos.uci(m), "san": pos.san(m) })).collect();
        let v = json!({
            "fen": pos.fen(),
            "turn": pos.turn().name(),
            "check": pos.is_check(),
            "legal": legal,
            "status": status(pos),
            "claimable": claimable(pos),
            "can_mate": { "white": pos.can_mate(Color::White), "black": pos.can_mate(Color::Black) },
            "halfmove_clock": pos.halfmoves(),
            "fullmove_number": pos.fullmoves(),
            "en_passant": pos.ep_square().map(|s| s.to_string()),
            "chess960": pos.is_chess960(),
        });
        let _ = writeln!(out, "{v}");
    } else {
        let _ = write!(out, "{}", pos.board_string());
        let _ = writeln!(out, "fen       {}", pos.fen());
        let _ = writeln!(out, "turn      {}", pos.turn().name());
        let _ = writeln!(out, "check     {}", pos.is_check());
        let _ = writeln!(out, "status    {}", status(pos));
        let claims = claimable(pos);
        let _ = writeln!(out, "claimable {}", if claims.is_empty() { "-".to_string() } else { claims.join(" ") });
        let _ = writeln!(out, "can mate  white {}, black {}", pos.can_mate(Color::White), pos.can_mate(Color::Black));
        let sans: Vec<String> = moves.iter().map(|&m| pos.san(m)).collect();
        let _ = writeln!(out, "legal     {} {}", moves.len(), sans.join(" "));
    }
}
