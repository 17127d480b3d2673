//! The collection of tables and the probing rules built on them (capture resolution, en passant, DTZ search,
//! root move ranking).

use crate::error::ProbeError;
use crate::material::Material;
use crate::table::{Kind, TableFile};
use crate::{Dtz, RootMove, Wdl};
use guoxiang_core::{Bitboard, MoveList, MovesKind, Position, Role};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Most pieces any Syzygy table holds.
const MAX_PIECES: u32 = 7;

/// A table file known by its path, mapped and parsed on first use.
#[derive(Debug)]
struct LazyTable {
    path: PathBuf,
    file: String,
    cell: OnceLock<Result<TableFile, ProbeError>>,
}

impl LazyTable {
    fn get(&self, kind: Kind, material: &Material) -> Result<&TableFile, ProbeError> {
        match self.cell.get_or_init(|| TableFile::open(&self.path, &self.file, kind, material)) {
            Ok(t) => Ok(t),
            Err(e) => Err(e.clone()),
        }
    }
}

/// The WDL and DTZ files of one material.
#[derive(Debug)]
struct Entry {
    /// As the file name says it (canonical orientation).
    material: Material,
    wdl: Option<LazyTable>,
    dtz: Option<LazyTable>,
}

/// A set of Syzygy tables, probed through positions of `guoxiang-core`.
///
/// Adding directories only lists their files; each file is mapped into memory and its header read the first
/// time a probe needs it (a damaged file is reported then, as [`ProbeError::Corrupt`], and again on every later
/// probe that needs it). The tablebase is `Send + Sync`: share one (e.g. in an `Arc`) between search threads.
pub struct Tablebase {
    entries: Vec<Entry>,
    /// Material key (either colour orientation) → entry.
    by_key: HashMap<u64, usize>,
    max_pieces: u32,
}

impl std::fmt::Debug for Tablebase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let wdl = self.entries.iter().filter(|e| e.wdl.is_some()).count();
        let dtz = self.entries.iter().filter(|e| e.dtz.is_some()).count();
        f.debug_struct("Tablebase")
            .field("wdl_tables", &wdl)
            .field("dtz_tables", &dtz)
            .field("max_pieces", &self.max_pieces)
            .finish()
    }
}

impl Default for Tablebase {
    fn default() -> Self {
        Tablebase::new()
    }
}

/// The DTZ of a position whose best move zeroes the counter at once, by its result: ±1, or ±101 when the
/// 50-move rule spoils the result.
fn before_zeroing(wdl: i32) -> i32 {
    match wdl {
        2 => 1,
        1 => 101,
        -1 => -101,
        -2 => -1,
        _ => 0,
    }
}

/// Legal captures other than en passant (they lead to smaller tables).
fn captures(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    pos.generate(pos.by_color(!pos.turn()), false, |pm| {
        if pm.kind != MovesKind::EnPassant {
            pm.for_each(|m| list.push(m));
        }
    });
    list
}

/// Legal moves to empty squares (no captures, en passant excluded) by pawns (`pawns`) or by the other pieces.
fn quiet_moves(pos: &Position, pawns: bool) -> MoveList {
    let mut list = MoveList::new();
    pos.generate(!pos.occupied(), false, |pm| {
        if pm.kind != MovesKind::EnPassant && (pm.role == Role::Pawn) == pawns {
            pm.for_each(|m| list.push(m));
        }
    });
    list
}

fn en_passant_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    if let Some(ep) = pos.ep_square() {
        pos.generate(Bitboard::from_square(ep), false, |pm| {
            if pm.kind == MovesKind::EnPassant {
                pm.for_each(|m| list.push(m));
            }
        });
    }
    list
}

/// Whether every legal move is an en-passant capture (so without it the side to move would be stalemated).
fn only_en_passant(pos: &Position) -> bool {
    pos.legal_moves().iter().all(|m| m.is_en_passant())
}

impl Tablebase {
    /// An empty set: every probe fails with [`ProbeError::MissingTable`] (bare kings excepted).
    pub fn new() -> Tablebase {
        Tablebase { entries: Vec::new(), by_key: HashMap::new(), max_pieces: 0 }
    }

    /// Adds every `*.rtbw` and `*.rtbz` file of a directory (not its subdirectories) whose name is a canonical
    /// Syzygy table name of 3 to 7 pieces (`KQvKR.rtbw`, not `KRvKQ.rtbw`); other files are ignored. A table
    /// added again (e.g. from a second directory) replaces the earlier file. Returns how many WDL files were
    /// found; fails only when the directory cannot be read. Files are not opened here.
    pub fn add_directory(&mut self, path: impl AsRef<Path>) -> Result<usize, ProbeError> {
        let dir = path.as_ref();
        let listing = std::fs::read_dir(dir).map_err(|e| ProbeError::io(dir, &e))?;
        let mut found = 0;
        for item in listing {
            let item = item.map_err(|e| ProbeError::io(dir, &e))?;
            let path = item.path();
            let kind = match path.extension().and_then(|e| e.to_str()) {
                Some("rtbw") => Kind::Wdl,
                Some("rtbz") => Kind::Dtz,
                _ => continue,
            };
            let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else { continue };
            let Some(material) = Material::from_name(stem) else { continue };
            if !(3..=MAX_PIECES).contains(&material.pieces()) || material.normalized() != material {
                continue;
            }
            if !path.is_file() {
                continue;
            }
            let file = format!("{stem}.{}", kind.extension());
            self.register(material, kind, LazyTable { path, file, cell: OnceLock::new() });
            if kind == Kind::Wdl {
                found += 1;
            }
        }
        Ok(found)
    }

    /// Adds each directory of a UCI `SyzygyPath` value: directories separated by `:` (`;` on Windows), as
    /// [`std::env::split_paths`] reads them. Empty entries are skipped. Returns the total of
    /// [`Tablebase::add_directory`]; stops at the first directory that cannot be read.
    pub fn add_paths(&mut self, paths: &str) -> Result<usize, ProbeError> {
        let mut total = 0;
        for dir in std::env::split_paths(paths) {
            if dir.as_os_str().is_empty() {
                continue;
            }
            total += self.add_directory(&dir)?;
        }
        Ok(total)
    }

    fn register(&mut self, material: Material, kind: Kind, table: LazyTable) {
        let i = match self.by_key.get(&material.key()) {
            Some(&i) => i,
            None => {
                self.entries.push(Entry { material, wdl: None, dtz: None });
                let i = self.entries.len() - 1;
                self.by_key.insert(material.key(), i);
                self.by_key.insert(material.flipped().key(), i);
                i
            }
        };
        let entry = &mut self.entries[i];
        match kind {
            Kind::Wdl => {
                entry.wdl = Some(table);
                self.max_pieces = self.max_pieces.max(material.pieces());
            }
            Kind::Dtz => entry.dtz = Some(table),
        }
    }

    /// The most pieces (kings included) of any WDL table added; 0 when none.
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    fn table(&self, pos: &Position, kind: Kind) -> Result<&TableFile, ProbeError> {
        let m = Material::of(pos);
        let missing = || ProbeError::MissingTable { name: format!("{}.{}", m.normalized().name(), kind.extension()) };
        let entry = self.by_key.get(&m.key()).map(|&i| &self.entries[i]).ok_or_else(missing)?;
        let lazy = match kind {
            Kind::Wdl => entry.wdl.as_ref(),
            Kind::Dtz => entry.dtz.as_ref(),
        };
        lazy.ok_or_else(missing)?.get(kind, &entry.material)
    }

    /// Refuses what no table holds.
    fn check(pos: &Position) -> Result<(), ProbeError> {
        if pos.occupied().count() > MAX_PIECES {
            return Err(ProbeError::TooManyPieces);
        }
        if pos.castling_rooks().any() {
            return Err(ProbeError::Castling);
        }
        Ok(())
    }

    /// The stored WDL value, captures not considered.
    fn stored_wdl(&self, pos: &Position) -> Result<i32, ProbeError> {
        if pos.occupied().count() == 2 {
            return Ok(0);
        }
        self.table(pos, Kind::Wdl)?.wdl(pos)
    }

    /// The value with captures resolved (en passant aside): the table may store anything not above the true value
    /// where a capture is the best move, so the result is the better of the stored value and the captures'.
    /// Alpha-beta over captures with the window (alpha, beta); also tells whether a capture is the (winning)
    /// best move.
    fn resolve(&self, pos: &Position, mut alpha: i32, beta: i32) -> Result<(i32, bool), ProbeError> {
        for m in captures(pos).iter() {
            let (v, _) = self.resolve(&pos.after(*m), -beta, -alpha)?;
            let v = -v;
            if v > alpha {
                if v >= beta {
                    return Ok((v, true));
                }
                alpha = v;
            }
        }
        let v = self.stored_wdl(pos)?;
        if alpha >= v { Ok((alpha, alpha > 0)) } else { Ok((v, false)) }
    }

    /// The best result of an en-passant capture, if there is one. The tables know nothing of en passant.
    fn best_en_passant(&self, pos: &Position) -> Result<Option<i32>, ProbeError> {
        let mut best = None;
        for m in en_passant_moves(pos).iter() {
            let v = -self.resolve(&pos.after(*m), -2, 2)?.0;
            best = Some(best.map_or(v, |b: i32| b.max(v)));
        }
        Ok(best)
    }

    /// WDL with captures and en passant resolved, -2..=2.
    fn wdl_value(&self, pos: &Position) -> Result<i32, ProbeError> {
        let (v, _) = self.resolve(pos, -2, 2)?;
        Ok(match self.best_en_passant(pos)? {
            None => v,
            Some(e) if e >= v => e,
            // A draw without en passant may be a stalemate that the en-passant capture avoids.
            Some(e) if v == 0 && only_en_passant(pos) => e,
            Some(_) => v,
        })
    }

    /// DTZ without looking at en passant.
    fn dtz_no_en_passant(&self, pos: &Position) -> Result<i32, ProbeError> {
        let (wdl, capture_best) = self.resolve(pos, -2, 2)?;
        if wdl == 0 {
            return Ok(0);
        }
        // The DTZ file stores nothing useful where the best move zeroes the counter.
        if capture_best {
            return Ok(before_zeroing(wdl));
        }
        if wdl > 0 {
            for m in quiet_moves(pos, true).iter() {
                if -self.wdl_value(&pos.after(*m))? == wdl {
                    return Ok(before_zeroing(wdl));
                }
            }
        }
        let table = self.table(pos, Kind::Dtz)?;
        if let Some(d) = table.dtz(pos, wdl)? {
            return Ok(before_zeroing(wdl) + wdl.signum() * d);
        }
        // The file holds the other side to move: search one ply.
        if wdl > 0 {
            // Captures and pawn moves are not the best moves here (see above): try the other moves.
            let mut best: Option<i32> = None;
            for m in quiet_moves(pos, false).iter() {
                let child = pos.after(*m);
                let v = -self.dtz_value(&child)?;
                let d = if v == 1 && child.is_checkmate() {
                    1
                } else if v > 0 {
                    v + 1
                } else {
                    continue;
                };
                best = Some(best.map_or(d, |b| b.min(d)));
            }
            best.ok_or_else(|| {
                ProbeError::corrupt(
                    &format!("{}.rtbz", Material::of(pos).normalized().name()),
                    "a won position has no winning move in the tables",
                )
            })
        } else {
            let mut best = -1;
            for m in pos.legal_moves().iter() {
                let child = pos.after(*m);
                let v = if pos.is_zeroing(*m) {
                    if wdl == -2 {
                        -1
                    } else if self.resolve(&child, 1, 2)?.0 == 2 {
                        0
                    } else {
                        -101
                    }
                } else {
                    -self.dtz_value(&child)? - 1
                };
                best = best.min(v);
            }
            Ok(best)
        }
    }

    /// DTZ with en passant taken into account.
    fn dtz_value(&self, pos: &Position) -> Result<i32, ProbeError> {
        let v = self.dtz_no_en_passant(pos)?;
        let Some(e) = self.best_en_passant(pos)? else { return Ok(v) };
        let e = before_zeroing(e);
        // Keep the table's distance unless the en-passant capture does better.
        Ok(if v < -100 {
            if e >= 0 { e } else { v }
        } else if v < 0 {
            if !(-100..0).contains(&e) { e } else { v }
        } else if v > 100 {
            if e > 0 { e } else { v }
        } else if v > 0 {
            if e == 1 { e } else { v }
        } else if e >= 0 || only_en_passant(pos) {
            e
        } else {
            v
        })
    }

    /// The result for the side to move with best play, assuming the halfmove clock is zero (see [`Wdl`]).
    /// Captures and en passant are resolved, so the answer is exact even where the file stores a placeholder.
    pub fn probe_wdl(&self, pos: &Position) -> Result<Wdl, ProbeError> {
        Self::check(pos)?;
        Ok(Wdl::from_i32(self.wdl_value(pos)?))
    }

    /// The distance to the next zeroing move (see [`Dtz`] for sign, rounding and the 50-move rule), assuming the
    /// halfmove clock is zero. Needs the position's WDL and DTZ files and the WDL files reached by captures.
    pub fn probe_dtz(&self, pos: &Position) -> Result<Dtz, ProbeError> {
        Self::check(pos)?;
        Ok(Dtz(self.dtz_value(pos)?))
    }

    /// Every legal move with what it leads to, from the side to move's point of view, and its rank (higher is
    /// better). See [`RootMove`] for how the halfmove clock enters.
    pub fn root_moves(&self, pos: &Position) -> Result<Vec<RootMove>, ProbeError> {
        Self::check(pos)?;
        let clock = i32::try_from(pos.halfmoves()).unwrap_or(i32::MAX);
        let mut out = Vec::new();
        for &mv in pos.legal_moves().iter() {
            let child = pos.after(mv);
            let mut d = if pos.is_zeroing(mv) {
                before_zeroing(-self.wdl_value(&child)?)
            } else {
                let c = -self.dtz_value(&child)?;
                c + c.signum()
            };
            if d == 2 && child.is_checkmate() {
                d = 1;
            }
            let (wdl, rank) = RootMove::judge(d, clock);
            out.push(RootMove { mv, wdl, dtz: Dtz(d), rank });
        }
        Ok(out)
    }

    /// The move the tables recommend: the highest [`RootMove::rank`] (a win that beats the 50-move rule, fastest to
    /// its zeroing move; else a cursed win; else a draw; else the slowest loss), the first such move in
    /// move-generation order on ties. With the move come its result and DTZ as in [`RootMove`]. `None` when
    /// there is no legal move.
    pub fn best_move(&self, pos: &Position) -> Result<Option<(guoxiang_core::Move, Wdl, Dtz)>, ProbeError> {
        let moves = self.root_moves(pos)?;
        let mut best: Option<&RootMove> = None;
        for m in &moves {
            if best.is_none_or(|b| m.rank > b.rank) {
                best = Some(m);
            }
        }
        Ok(best.map(|m| (m.mv, m.wdl, m.dtz)))
    }
}
