//! One table file: reading its header, decoding its compressed streams, and looking a position up in it.
//!
//! Layout of a file (all offsets from its start; multi-byte header numbers little-endian):
//!
//! | bytes | what |
//! |---|---|
//! | 0–3 | magic number (WDL and DTZ differ) |
//! | 4 | bit 0: both sides to move are stored (WDL); bit 1: the table has pawns (then four parts, by file) |
//! | 5… | per part: the digit order byte(s) and the pieces in storage order (a nibble per side to move) |
//! | even offset | per part and side: the description of its compressed stream (below) |
//! | (DTZ) | the value maps, then padding to an even offset |
//! | … | per stream: the block index (6 bytes per entry), then the block sizes (2 bytes per block) |
//! | 64-aligned | per stream: the compressed blocks |
//! | last 16 | a checksum (not read here) |
//!
//! A stream is a sequence of values (one per index) cut into blocks of a fixed number of bytes. Each block holds
//! a run of symbols in a canonical prefix code (big-endian bit order); every symbol stands either for one value
//! or for a pair of symbols, so one symbol may expand to a long run of values. The block index points every
//! 2^k-th value to its block and position, from where the block sizes lead to the right block.

use crate::error::ProbeError;
use crate::index::{Layout, Lead, leader_order, pawn_file};
use crate::material::Material;
use guoxiang_core::{Color, Position, Role};
use memmap2::Mmap;
use std::fs::File;
use std::path::Path;

/// Which of the two kinds of file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Win/draw/loss (`.rtbw`).
    Wdl,
    /// Distance to zeroing (`.rtbz`).
    Dtz,
}

impl Kind {
    fn magic(self) -> [u8; 4] {
        match self {
            Kind::Wdl => [0x71, 0xe8, 0x23, 0x5d],
            Kind::Dtz => [0xd7, 0x66, 0x0c, 0xa5],
        }
    }

    pub(crate) fn extension(self) -> &'static str {
        match self {
            Kind::Wdl => "rtbw",
            Kind::Dtz => "rtbz",
        }
    }
}

/// Bounds-checked reading of a file's bytes; failures name the file and the offset.
struct Bytes<'a> {
    data: &'a [u8],
    file: &'a str,
}

impl Bytes<'_> {
    fn fail(&self, at: usize, what: impl std::fmt::Display) -> ProbeError {
        ProbeError::corrupt(self.file, format!("at byte {at}: {what}"))
    }

    fn truncated(&self, at: usize, what: &str) -> ProbeError {
        self.fail(at, format!("{what} lies beyond the end of the file ({} bytes): truncated?", self.data.len()))
    }

    fn u8(&self, at: usize, what: &str) -> Result<u8, ProbeError> {
        self.data.get(at).copied().ok_or_else(|| self.truncated(at, what))
    }

    fn u16(&self, at: usize, what: &str) -> Result<u16, ProbeError> {
        match self.data.get(at..at.wrapping_add(2)) {
            Some(b) => Ok(u16::from_le_bytes([b[0], b[1]])),
            None => Err(self.truncated(at, what)),
        }
    }

    fn u32(&self, at: usize, what: &str) -> Result<u32, ProbeError> {
        match self.data.get(at..at.wrapping_add(4)) {
            Some(b) => Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            None => Err(self.truncated(at, what)),
        }
    }
}

/// Big-endian read of `N` bytes at `at`; bytes beyond the end of the data read as zero. The decoder looks a few
/// bytes ahead of the bits it uses, which for the last block may run past the data.
#[inline]
fn read_be_padded<const N: usize>(data: &[u8], at: usize) -> u64 {
    let mut v = 0u64;
    for i in 0..N {
        v = (v << 8) | u64::from(data.get(at.wrapping_add(i)).copied().unwrap_or(0));
    }
    v
}

/// One compressed sequence of values.
#[derive(Debug)]
struct Stream {
    /// Every value is this one (then nothing else is stored).
    constant: Option<u16>,
    block_bits: u32,
    index_bits: u32,
    index_entries: u64,
    blocks: u64,
    real_blocks: u64,
    min_len: u32,
    /// Per code length from `min_len`: the smallest code of that length, left-aligned in 64 bits.
    base: Vec<u64>,
    /// Per code length from `min_len`: the number of the first symbol of that length.
    first_symbol: Vec<u16>,
    /// Offset of the symbol records (3 bytes each).
    symbols: usize,
    /// Per symbol: how many values it stands for, minus one.
    run: Vec<u32>,
    index_table: usize,
    size_table: usize,
    data: usize,
}

impl Stream {
    /// Reads a stream description at `at`; returns it and the offset after it. `size` is the number of values.
    fn parse(b: &Bytes<'_>, at: usize, size: u64, kind: Kind) -> Result<(Stream, usize), ProbeError> {
        let flags = b.u8(at, "stream flags")?;
        if flags & 0x80 != 0 {
            // A single value throughout (DTZ: zero).
            let value = match kind {
                Kind::Wdl => u16::from(b.u8(at + 1, "constant value")?),
                Kind::Dtz => 0,
            };
            let stream = Stream {
                constant: Some(value),
                block_bits: 0,
                index_bits: 0,
                index_entries: 0,
                blocks: 0,
                real_blocks: 0,
                min_len: 0,
                base: Vec::new(),
                first_symbol: Vec::new(),
                symbols: 0,
                run: Vec::new(),
                index_table: 0,
                size_table: 0,
                data: 0,
            };
            return Ok((stream, at + 2));
        }
        let block_bits = u32::from(b.u8(at + 1, "block size")?);
        let index_bits = u32::from(b.u8(at + 2, "index spacing")?);
        let padding = u64::from(b.u8(at + 3, "padding blocks")?);
        let real_blocks = u64::from(b.u32(at + 4, "block count")?);
        let max_len = u32::from(b.u8(at + 8, "longest code")?);
        let min_len = u32::from(b.u8(at + 9, "shortest code")?);
        if !(1..=31).contains(&block_bits) {
            return Err(b.fail(at + 1, format!("block size 2^{block_bits} bytes is not supported")));
        }
        if !(1..=40).contains(&index_bits) {
            return Err(b.fail(at + 2, format!("index spacing 2^{index_bits} is not supported")));
        }
        // The decoder keeps at least 33 unread bits in its 64-bit window, so codes may be up to 32 bits long.
        if min_len == 0 || min_len > max_len || max_len > 32 {
            return Err(b.fail(at + 8, format!("code lengths {min_len}..={max_len} are not valid")));
        }
        let lengths = (max_len - min_len + 1) as usize;
        let first_symbol: Vec<u16> =
            (0..lengths).map(|i| b.u16(at + 10 + 2 * i, "symbol table")).collect::<Result<_, _>>()?;
        let count_at = at + 10 + 2 * lengths;
        let symbol_count = usize::from(b.u16(count_at, "symbol count")?);
        let symbols = count_at + 2;
        let next = symbols + 3 * symbol_count + (symbol_count & 1);
        if next > b.data.len() {
            return Err(b.truncated(symbols, "the symbol records"));
        }

        // The canonical code: the smallest code of each length, computed from the longest length upwards.
        let mut base = vec![0u64; lengths];
        for i in (0..lengths - 1).rev() {
            let sum = base[i + 1] + u64::from(first_symbol[i]);
            let diff = sum
                .checked_sub(u64::from(first_symbol[i + 1]))
                .ok_or_else(|| b.fail(at + 10 + 2 * i, "symbol numbers per code length do not form a prefix code"))?;
            base[i] = diff / 2;
        }
        for (i, v) in base.iter_mut().enumerate() {
            // Left-align: a code of `len` bits is compared with the top `len` bits of the 64-bit window.
            *v <<= 64 - (min_len + i as u32);
        }

        let run = symbol_runs(b, symbols, symbol_count)?;

        let index_entries = size.div_ceil(1u64 << index_bits);
        let stream = Stream {
            constant: None,
            block_bits,
            index_bits,
            index_entries,
            blocks: real_blocks + padding,
            real_blocks,
            min_len,
            base,
            first_symbol,
            symbols,
            run,
            index_table: 0,
            size_table: 0,
            data: 0,
        };
        Ok((stream, next))
    }

    fn index_table_len(&self) -> Option<usize> {
        usize::try_from(self.index_entries.checked_mul(6)?).ok()
    }

    fn size_table_len(&self) -> Option<usize> {
        usize::try_from(self.blocks.checked_mul(2)?).ok()
    }

    fn data_len(&self) -> Option<usize> {
        usize::try_from(self.real_blocks.checked_mul(1u64 << self.block_bits)?).ok()
    }

    /// The left and right halves of a pair symbol (the right half is 0xfff for a symbol standing for one value).
    #[inline]
    fn halves(&self, data: &[u8], sym: usize) -> (usize, usize) {
        let at = self.symbols + 3 * sym;
        let (b0, b1, b2) = (data[at], data[at + 1], data[at + 2]);
        (usize::from(b1 & 0x0f) << 8 | usize::from(b0), usize::from(b2) << 4 | usize::from(b1 >> 4))
    }

    /// The value number `idx`.
    fn get(&self, b: &Bytes<'_>, idx: u64, kind: Kind) -> Result<u16, ProbeError> {
        if let Some(v) = self.constant {
            return Ok(v);
        }
        let data = b.data;
        let entry = idx >> self.index_bits;
        if entry >= self.index_entries {
            return Err(b.fail(self.index_table, format!("value {idx} lies beyond the stream's index")));
        }
        let entry_at = self.index_table + 6 * entry as usize;
        let mut block = u64::from(b.u32(entry_at, "block index entry")?);
        let half = 1i64 << (self.index_bits - 1);
        let mut offset = (idx & ((1u64 << self.index_bits) - 1)) as i64 - half
            + i64::from(b.u16(entry_at + 4, "block index entry")?);
        let block_size = |block: u64| -> Result<i64, ProbeError> {
            if block >= self.blocks {
                return Err(b.fail(entry_at, format!("block index leads to block {block} of {}", self.blocks)));
            }
            Ok(i64::from(b.u16(self.size_table + 2 * block as usize, "block size table")?))
        };
        while offset < 0 {
            if block == 0 {
                return Err(b.fail(entry_at, "block index leads before the first block"));
            }
            block -= 1;
            offset += block_size(block)? + 1;
        }
        loop {
            let n = block_size(block)?;
            if offset <= n {
                break;
            }
            offset -= n + 1;
            block += 1;
        }
        if block >= self.real_blocks {
            return Err(b.fail(entry_at, format!("block {block} holds no data ({} blocks)", self.real_blocks)));
        }

        // Walk the block's symbols until the one that covers `offset`.
        let mut offset = offset as u64;
        let mut at = self.data + ((block as usize) << self.block_bits);
        let mut window = read_be_padded::<8>(data, at);
        at += 8;
        let mut used = 0u32;
        let sym = loop {
            let mut len = 0usize;
            while window < self.base[len] {
                len += 1;
                if len >= self.base.len() {
                    return Err(b.fail(at, "no code matches the data"));
                }
            }
            let bits = self.min_len + len as u32;
            let sym = usize::from(self.first_symbol[len]) + ((window - self.base[len]) >> (64 - bits)) as usize;
            let Some(&run) = self.run.get(sym) else {
                return Err(b.fail(at, format!("symbol {sym} of {} decoded", self.run.len())));
            };
            if offset <= u64::from(run) {
                break sym;
            }
            offset -= u64::from(run) + 1;
            window <<= bits;
            used += bits;
            if used >= 32 {
                used -= 32;
                window |= read_be_padded::<4>(data, at) << used;
                at += 4;
            }
        };

        // Descend through the pairs to the single value.
        let mut sym = sym;
        while self.run[sym] != 0 {
            let (left, right) = self.halves(data, sym);
            let left_run = u64::from(self.run[left]);
            if offset <= left_run {
                sym = left;
            } else {
                offset -= left_run + 1;
                sym = right;
            }
        }
        let at = self.symbols + 3 * sym;
        Ok(match kind {
            Kind::Wdl => u16::from(data[at]),
            Kind::Dtz => u16::from(data[at + 1] & 0x0f) << 8 | u16::from(data[at]),
        })
    }
}

/// How many values each symbol stands for (minus one), following the pairs; rejects references to symbols that do
/// not exist and cycles. Iterative, so a long chain in a damaged file cannot overflow the stack.
fn symbol_runs(b: &Bytes<'_>, symbols: usize, count: usize) -> Result<Vec<u32>, ProbeError> {
    const TODO: u8 = 0;
    const OPEN: u8 = 1;
    const DONE: u8 = 2;
    let halves = |sym: usize| -> (usize, usize) {
        let at = symbols + 3 * sym;
        let (b0, b1, b2) = (b.data[at], b.data[at + 1], b.data[at + 2]);
        (usize::from(b1 & 0x0f) << 8 | usize::from(b0), usize::from(b2) << 4 | usize::from(b1 >> 4))
    };
    let mut run = vec![0u32; count];
    let mut state = vec![TODO; count];
    let mut stack = Vec::new();
    for start in 0..count {
        if state[start] != TODO {
            continue;
        }
        stack.push(start);
        while let Some(&sym) = stack.last() {
            let (left, right) = halves(sym);
            match state[sym] {
                TODO => {
                    if right == 0xfff {
                        run[sym] = 0;
                        state[sym] = DONE;
                        stack.pop();
                        continue;
                    }
                    state[sym] = OPEN;
                    for child in [left, right] {
                        if child >= count {
                            return Err(b.fail(symbols + 3 * sym, format!("symbol {sym} refers to symbol {child}")));
                        }
                        match state[child] {
                            OPEN => return Err(b.fail(symbols + 3 * sym, format!("symbol {sym} contains itself"))),
                            TODO => stack.push(child),
                            _ => {}
                        }
                    }
                }
                OPEN => {
                    let total = run[left]
                        .checked_add(run[right])
                        .and_then(|t| t.checked_add(1))
                        .filter(|&t| t < 1 << 30)
                        .ok_or_else(|| b.fail(symbols + 3 * sym, format!("symbol {sym} expands too far")))?;
                    run[sym] = total;
                    state[sym] = DONE;
                    stack.pop();
                }
                _ => {
                    stack.pop();
                }
            }
        }
    }
    Ok(run)
}

/// A piece code of the header: role 1 (pawn) … 6 (king), plus 8 for the table's black side.
fn code_parts(code: u8) -> Option<(usize, Role)> {
    let role = code & 7;
    if !(1..=6).contains(&role) {
        return None;
    }
    Some((usize::from(code >> 3), Role::from_index(usize::from(role - 1))))
}

#[derive(Debug)]
struct Part {
    layout: Layout,
    stream: Stream,
}

/// DTZ files: per part, which side to move is stored and how stored numbers become distances.
#[derive(Debug, Clone, Copy, Default)]
struct DtzPart {
    flags: u8,
    /// Per result (win, loss, cursed win, blessed loss): where the map's entries start and how many there are.
    maps: [(usize, usize); 4],
}

/// DTZ flags: bit 0 which side to move the table is for; bit 1 values go through a map; bit 2 (3) wins (losses)
/// are stored in plies rather than in moves; bit 4 map entries are 16-bit.
const DTZ_SIDE: u8 = 1;
const DTZ_MAPPED: u8 = 2;
const DTZ_WIN_PLIES: u8 = 4;
const DTZ_LOSS_PLIES: u8 = 8;
const DTZ_WIDE: u8 = 16;

/// What the header says, before it is joined with the mapping.
struct Parsed {
    header_material: Material,
    lead_pawns: usize,
    sides: usize,
    parts: Vec<Part>,
    dtz: Vec<DtzPart>,
}

/// A parsed, mapped table file.
#[derive(Debug)]
pub(crate) struct TableFile {
    file: String,
    data: Mmap,
    kind: Kind,
    /// The pieces the header calls white.
    white: [u8; 6],
    symmetric: bool,
    pawns: bool,
    lead_pawns: usize,
    /// Sides to move stored per part (1 or 2).
    sides: usize,
    /// `[file * sides + side]`: one part without pawns, four (by the leading pawn's file) with.
    parts: Vec<Part>,
    dtz: Vec<DtzPart>,
}

impl TableFile {
    /// Maps and checks the file. `material` is what the file's name says.
    pub(crate) fn open(path: &Path, file: &str, kind: Kind, material: &Material) -> Result<TableFile, ProbeError> {
        let handle = File::open(path).map_err(|e| ProbeError::io(path, &e))?;
        let len = handle.metadata().map_err(|e| ProbeError::io(path, &e))?.len();
        if len % 64 != 16 {
            return Err(ProbeError::corrupt(
                file,
                format!("its size, {len} bytes, is not 16 more than a multiple of 64: truncated or not a table"),
            ));
        }
        // SAFETY: the mapping is read-only and private to this process. Syzygy files are immutable data that no
        // one writes while they are in use; the only hazard of mapping is another process truncating or rewriting
        // the file while it is mapped, which the tables' users are told not to do (see the crate documentation).
        // Every read goes through bounds-checked slices of the mapping's length, taken here once.
        let data = unsafe { Mmap::map(&handle) }.map_err(|e| ProbeError::io(path, &e))?;
        #[cfg(unix)]
        {
            // Probes jump around the file: read-ahead would only waste memory. Advice is a hint; failure is harmless.
            let _ = data.advise(memmap2::Advice::Random);
        }
        TableFile::parse(data, file, kind, material)
    }

    fn parse(data: Mmap, file: &str, kind: Kind, material: &Material) -> Result<TableFile, ProbeError> {
        let parsed = Self::parse_bytes(&Bytes { data: &data, file }, kind, material)?;
        Ok(TableFile {
            file: file.to_string(),
            data,
            kind,
            white: parsed.header_material.counts[0],
            symmetric: material.is_symmetric(),
            pawns: material.has_pawns(),
            lead_pawns: parsed.lead_pawns,
            sides: parsed.sides,
            parts: parsed.parts,
            dtz: parsed.dtz,
        })
    }

    fn parse_bytes(b: &Bytes<'_>, kind: Kind, material: &Material) -> Result<Parsed, ProbeError> {
        let magic = kind.magic();
        let found = b.data.get(..4).unwrap_or(b.data);
        if found != magic {
            return Err(b.fail(0, format!("magic number {found:02x?} is not that of a {} file", kind.extension())));
        }
        let flags = b.u8(4, "table flags")?;
        let pawns = material.has_pawns();
        if (flags & 2 != 0) != pawns {
            return Err(b.fail(4, "the pawn flag does not match the file name"));
        }
        let split = flags & 1 != 0;
        let files = if pawns { 4 } else { 1 };
        let sides = if kind == Kind::Wdl && split { 2 } else { 1 };
        let n = material.pieces() as usize;

        // Which pawns lead: with pawns on both sides, the side with fewer (either, when as many).
        let (wp, bp) = (material.pawns(0), material.pawns(1));
        let (lead, other_pawns) = if !pawns {
            (if material.unique_pieces() >= 3 { Lead::ThreeUnique } else { Lead::Kings }, 0)
        } else if wp == 0 || bp == 0 {
            (Lead::Pawns(wp + bp), 0)
        } else {
            (Lead::Pawns(wp.min(bp)), wp.max(bp))
        };

        // Piece lists and digit orders.
        let mut at = 5;
        let mut layouts: Vec<Layout> = Vec::with_capacity(files * sides);
        let mut header_material: Option<Material> = None;
        for f in 0..files {
            let order_at = at;
            let order2_at = if other_pawns > 0 { Some(at + 1) } else { None };
            let codes_at = at + 1 + usize::from(other_pawns > 0);
            for side in 0..sides {
                let nibble = |byte: u8| if side == 0 { byte & 0x0f } else { byte >> 4 };
                let order = usize::from(nibble(b.u8(order_at, "digit order")?));
                let order2 = match order2_at {
                    Some(a) => Some(usize::from(nibble(b.u8(a, "digit order")?))),
                    None => None,
                };
                let mut codes = Vec::with_capacity(n);
                for i in 0..n {
                    codes.push(nibble(b.u8(codes_at + i, "piece list")?));
                }
                let m = check_piece_list(&codes, lead, other_pawns, material).map_err(|e| b.fail(codes_at, e))?;
                match header_material {
                    None => header_material = Some(m),
                    Some(h) if h != m => return Err(b.fail(codes_at, "the parts disagree on the colours")),
                    Some(_) => {}
                }
                if let (Some(first), Lead::Pawns(_)) = (layouts.first(), lead)
                    && first.codes[0] != codes[0]
                {
                    return Err(b.fail(codes_at, "the parts disagree on the leading pawns"));
                }
                let layout =
                    Layout::new(&codes, lead, other_pawns, f, order, order2).map_err(|e| b.fail(order_at, e))?;
                layouts.push(layout);
            }
            at = codes_at + n;
        }
        let header_material = header_material.ok_or_else(|| b.fail(5, "no piece list"))?;
        at += at & 1;

        // Stream descriptions.
        let mut streams = Vec::with_capacity(layouts.len());
        let mut dtz_parts = Vec::new();
        for layout in &layouts {
            let flags = b.u8(at, "stream flags")?;
            let (stream, next) = Stream::parse(b, at, layout.size, kind)?;
            if kind == Kind::Dtz {
                dtz_parts.push(DtzPart { flags, maps: [(0, 0); 4] });
            }
            streams.push(stream);
            at = next;
        }

        // DTZ value maps.
        if kind == Kind::Dtz {
            for part in dtz_parts.iter_mut() {
                if part.flags & DTZ_MAPPED == 0 {
                    continue;
                }
                if part.flags & DTZ_WIDE != 0 {
                    at += at & 1;
                    for map in part.maps.iter_mut() {
                        let len = usize::from(b.u16(at, "value map")?);
                        *map = (at + 2, len);
                        at += 2 + 2 * len;
                    }
                } else {
                    for map in part.maps.iter_mut() {
                        let len = usize::from(b.u8(at, "value map")?);
                        *map = (at + 1, len);
                        at += 1 + len;
                    }
                }
            }
            at += at & 1;
        }

        // Block indices, block sizes, blocks.
        let too_big = |at: usize| b.fail(at, "a stream's tables are larger than the file");
        for s in streams.iter_mut() {
            s.index_table = at;
            at = at.checked_add(s.index_table_len().ok_or_else(|| too_big(at))?).ok_or_else(|| too_big(at))?;
        }
        for s in streams.iter_mut() {
            s.size_table = at;
            at = at.checked_add(s.size_table_len().ok_or_else(|| too_big(at))?).ok_or_else(|| too_big(at))?;
        }
        for s in streams.iter_mut() {
            at = at.checked_add(63).ok_or_else(|| too_big(at))? & !63;
            s.data = at;
            at = at.checked_add(s.data_len().ok_or_else(|| too_big(at))?).ok_or_else(|| too_big(at))?;
        }
        if at > b.data.len() {
            return Err(b.truncated(at, "the compressed data"));
        }

        let parts = layouts.into_iter().zip(streams).map(|(layout, stream)| Part { layout, stream }).collect();
        let lead_pawns = match lead {
            Lead::Pawns(k) => k,
            _ => 0,
        };
        Ok(Parsed { header_material, lead_pawns, sides, parts, dtz: dtz_parts })
    }

    fn part(&self, file: usize, side: usize) -> Result<&Part, ProbeError> {
        let i = match self.kind {
            Kind::Wdl => file * self.sides + side,
            Kind::Dtz => file,
        };
        if self.kind == Kind::Wdl && side >= self.sides {
            return Err(ProbeError::corrupt(
                &self.file,
                "the file stores only one side to move, but the table is not symmetric",
            ));
        }
        self.parts.get(i).ok_or_else(|| ProbeError::corrupt(&self.file, format!("no part {i}")))
    }

    /// Finds the position in the table: which file part, which side to move (in the table's colours) and which
    /// index. The position's material must be the table's (either way round).
    fn locate(&self, pos: &Position) -> Result<(usize, usize, u64), ProbeError> {
        let black_to_move = pos.turn() == Color::Black;
        let swap = if self.symmetric { black_to_move } else { Material::of(pos).counts[0] != self.white };
        let side = usize::from(black_to_move != swap);
        // With pawns, exchanging colours also turns the board upside down (pawns must move up).
        let mirror = if swap && self.pawns { 56 } else { 0 };
        let piece = |code: u8| -> Result<(Color, Role), ProbeError> {
            let (table_color, role) =
                code_parts(code).ok_or_else(|| ProbeError::corrupt(&self.file, "bad piece code"))?;
            let white = (table_color == 0) != swap;
            Ok((if white { Color::White } else { Color::Black }, role))
        };
        let misfit = || ProbeError::corrupt(&self.file, "the position's pieces do not fit the table's piece list");

        // Squares in storage order: each run of equal codes takes the squares of that piece, in square order.
        let fill = |layout: &Layout, sq: &mut [u8; 7], filled: &mut usize, upto: usize| -> Result<(), ProbeError> {
            while *filled < upto {
                let (c, r) = piece(layout.codes[*filled])?;
                let bb = pos.pieces(c, r);
                if bb.is_empty() || *filled + bb.count() as usize > upto {
                    return Err(misfit());
                }
                for s in bb {
                    sq[*filled] = s.index() as u8 ^ mirror;
                    *filled += 1;
                }
            }
            Ok(())
        };
        let mut sq = [0u8; 7];
        let mut filled = 0;
        let (file, layout) = if self.pawns {
            fill(&self.parts[0].layout, &mut sq, &mut filled, self.lead_pawns)?;
            // The leading pawn nearest the edge (lowest rank among those) decides the part.
            let leader = (0..self.lead_pawns).min_by_key(|&i| leader_order(sq[i])).unwrap_or(0);
            sq.swap(0, leader);
            let file = pawn_file(sq[0]);
            (file, &self.part(file, side)?.layout)
        } else {
            (0, &self.part(0, side)?.layout)
        };
        fill(layout, &mut sq, &mut filled, layout.pieces)?;
        let index = layout
            .index(&mut sq)
            .filter(|&i| i < layout.size)
            .ok_or_else(|| ProbeError::corrupt(&self.file, "the position has no index in the table"))?;
        Ok((file, side, index))
    }

    /// The stored win/draw/loss value for the side to move, -2..=2. Captures are not looked at: the caller must
    /// resolve them (the table may hold any lower value where a capture is best).
    pub(crate) fn wdl(&self, pos: &Position) -> Result<i32, ProbeError> {
        let (file, side, index) = self.locate(pos)?;
        let b = Bytes { data: &self.data, file: &self.file };
        let v = self.part(file, side)?.stream.get(&b, index, Kind::Wdl)?;
        if v > 4 {
            return Err(ProbeError::corrupt(&self.file, format!("value {v} at index {index} is not a WDL value")));
        }
        Ok(i32::from(v) - 2)
    }

    /// The stored distance (in plies, before the caller's adjustments) for a position whose capture-resolved
    /// result is `wdl` (non-zero). `None` when the file holds the other side to move.
    pub(crate) fn dtz(&self, pos: &Position, wdl: i32) -> Result<Option<i32>, ProbeError> {
        let (file, side, index) = self.locate(pos)?;
        let info = *self.dtz.get(file).ok_or_else(|| ProbeError::corrupt(&self.file, "missing DTZ part"))?;
        if !self.symmetric && usize::from(info.flags & DTZ_SIDE) != side {
            return Ok(None);
        }
        let b = Bytes { data: &self.data, file: &self.file };
        let mut v = u32::from(self.part(file, side)?.stream.get(&b, index, Kind::Dtz)?);
        if info.flags & DTZ_MAPPED != 0 {
            let map = match wdl {
                2 => 0,
                -2 => 1,
                1 => 2,
                -1 => 3,
                _ => 0,
            };
            let (start, len) = info.maps[map];
            if v as usize >= len {
                return Err(b.fail(start, format!("stored value {v} beyond the {len} entries of its map")));
            }
            v = if info.flags & DTZ_WIDE != 0 {
                u32::from(b.u16(start + 2 * v as usize, "value map")?)
            } else {
                u32::from(b.u8(start + v as usize, "value map")?)
            };
        }
        let in_plies = match wdl {
            2 => info.flags & DTZ_WIN_PLIES != 0,
            -2 => info.flags & DTZ_LOSS_PLIES != 0,
            _ => false,
        };
        Ok(Some(if in_plies { v as i32 } else { 2 * v as i32 }))
    }
}

/// Checks a header's piece list against the file name's material and the numbering's needs; returns the material
/// with the colours as the header gives them.
fn check_piece_list(codes: &[u8], lead: Lead, other_pawns: usize, named: &Material) -> Result<Material, String> {
    let mut m = Material::default();
    for &c in codes {
        let (color, role) = code_parts(c).ok_or_else(|| format!("piece code {c} is not a piece"))?;
        m.counts[color][role.index()] += 1;
    }
    if m != *named && m != named.flipped() {
        return Err(format!("the pieces listed ({}) are not the file name's ({})", m.name(), named.name()));
    }
    let count =
        |c: u8| -> usize { code_parts(c).map(|(color, role)| usize::from(m.counts[color][role.index()])).unwrap_or(0) };
    // Each run of equal codes must hold every piece with that code.
    let mut i = 0;
    while i < codes.len() {
        let mut j = i + 1;
        while j < codes.len() && codes[j] == codes[i] {
            j += 1;
        }
        if j - i != count(codes[i]) {
            return Err("pieces of one kind are not listed together".to_string());
        }
        i = j;
    }
    let is_king = |c: u8| c & 7 == 6;
    let is_pawn = |c: u8| c & 7 == 1;
    let ok = match lead {
        Lead::ThreeUnique => codes.len() >= 3 && codes[..3].iter().all(|&c| count(c) == 1),
        Lead::Kings => codes.len() >= 2 && is_king(codes[0]) && is_king(codes[1]),
        Lead::Pawns(k) => {
            codes.len() >= k + other_pawns
                && is_pawn(codes[0])
                && count(codes[0]) == k
                && (other_pawns == 0 || (is_pawn(codes[k]) && codes[k] != codes[0] && count(codes[k]) == other_pawns))
        }
    };
    if !ok {
        return Err("the leading pieces are not what the material requires".to_string());
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaf(v: u8) -> [u8; 3] {
        [v, 0xf0, 0xff]
    }

    fn pair(l: u16, r: u16) -> [u8; 3] {
        [(l & 0xff) as u8, ((l >> 8) as u8 & 0x0f) | (((r & 0x0f) as u8) << 4), (r >> 4) as u8]
    }

    fn runs(records: &[[u8; 3]]) -> Result<Vec<u32>, ProbeError> {
        let data: Vec<u8> = records.iter().flatten().copied().collect();
        symbol_runs(&Bytes { data: &data, file: "test.rtbw" }, 0, records.len())
    }

    #[test]
    fn symbol_expansion_lengths() {
        // 0 and 1 are single values, 2 = (0, 1) two values, 3 = (2, 2) four values.
        assert_eq!(runs(&[leaf(3), leaf(4), pair(0, 1), pair(2, 2)]), Ok(vec![0, 0, 1, 3]));
        // Pairs may refer forwards.
        assert_eq!(runs(&[pair(1, 2), leaf(0), leaf(1)]), Ok(vec![1, 0, 0]));
    }

    #[test]
    fn damaged_symbols_are_errors() {
        let err = runs(&[pair(1, 1), pair(0, 0)]).unwrap_err();
        assert!(err.to_string().contains("contains itself"), "{err}");
        let err = runs(&[pair(0, 0)]).unwrap_err();
        assert!(err.to_string().contains("contains itself"), "{err}");
        let err = runs(&[leaf(1), pair(0, 7)]).unwrap_err();
        assert!(err.to_string().contains("refers to symbol 7"), "{err}");
        assert!(err.to_string().contains("test.rtbw"), "{err}");
    }

    #[test]
    fn piece_lists_are_checked() {
        let krk = Material::from_name("KRvK").unwrap();
        // White king, white rook, black king: the three unique pieces lead.
        assert!(check_piece_list(&[6, 4, 14], Lead::ThreeUnique, 0, &krk).is_ok());
        // Colours exchanged in the header: still this table.
        assert_eq!(check_piece_list(&[14, 12, 6], Lead::ThreeUnique, 0, &krk).unwrap(), krk.flipped());
        assert!(check_piece_list(&[6, 5, 14], Lead::ThreeUnique, 0, &krk).is_err());
        assert!(check_piece_list(&[6, 4, 0], Lead::ThreeUnique, 0, &krk).is_err());
        let knnk = Material::from_name("KNNvK").unwrap();
        assert!(check_piece_list(&[6, 14, 2, 2], Lead::Kings, 0, &knnk).is_ok());
        // The knights must be listed together, the kings first.
        assert!(check_piece_list(&[6, 2, 14, 2], Lead::Kings, 0, &knnk).is_err());
        assert!(check_piece_list(&[2, 2, 6, 14], Lead::Kings, 0, &knnk).is_err());
        let kpkp = Material::from_name("KPvKP").unwrap();
        assert!(check_piece_list(&[1, 9, 6, 14], Lead::Pawns(1), 1, &kpkp).is_ok());
        assert!(check_piece_list(&[6, 9, 1, 14], Lead::Pawns(1), 1, &kpkp).is_err());
    }
}
