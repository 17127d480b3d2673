//! Colours, roles, pieces, files, ranks and squares: the small value types everything else is built from.

use core::fmt;

/// The two sides.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `w` or `b`, as in FEN.
    pub const fn char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// `white` or `black`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }

    /// 白方 / 黑方.
    pub const fn name_zh(self) -> &'static str {
        match self {
            Color::White => "白方",
            Color::Black => "黑方",
        }
    }

    /// Picks `white` or `black` according to the colour.
    #[inline]
    pub fn fold<T>(self, white: T, black: T) -> T {
        match self {
            Color::White => white,
            Color::Black => black,
        }
    }

    /// The rank on which this colour's pieces start (1 or 8).
    #[inline]
    pub const fn back_rank(self) -> Rank {
        match self {
            Color::White => Rank::First,
            Color::Black => Rank::Eighth,
        }
    }

    /// The rank a pawn of this colour promotes on.
    #[inline]
    pub const fn promotion_rank(self) -> Rank {
        match self {
            Color::White => Rank::Eighth,
            Color::Black => Rank::First,
        }
    }
}

impl core::ops::Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

/// The kind of a piece, without its colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
}

impl Role {
    pub const ALL: [Role; 6] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King];
    /// The pieces a pawn may promote to, strongest first.
    pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub const fn from_index(i: usize) -> Role {
        Role::ALL[i]
    }

    /// Upper-case English letter (`P N B R Q K`).
    pub const fn upper_char(self) -> char {
        match self {
            Role::Pawn => 'P',
            Role::Knight => 'N',
            Role::Bishop => 'B',
            Role::Rook => 'R',
            Role::Queen => 'Q',
            Role::King => 'K',
        }
    }

    /// Lower-case English letter (`p n b r q k`).
    pub const fn char(self) -> char {
        self.upper_char().to_ascii_lowercase()
    }

    /// The Chinese piece letter used in Chinese algebraic notation: 王 后 车 象 马 兵.
    pub const fn zh_char(self) -> char {
        match self {
            Role::Pawn => '兵',
            Role::Knight => '马',
            Role::Bishop => '象',
            Role::Rook => '车',
            Role::Queen => '后',
            Role::King => '王',
        }
    }

    /// English name (`pawn`, `knight`, …).
    pub const fn name(self) -> &'static str {
        match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
        }
    }

    /// From an English letter of either case.
    pub const fn from_char(c: char) -> Option<Role> {
        match c.to_ascii_lowercase() {
            'p' => Some(Role::Pawn),
            'n' => Some(Role::Knight),
            'b' => Some(Role::Bishop),
            'r' => Some(Role::Rook),
            'q' => Some(Role::Queen),
            'k' => Some(Role::King),
            _ => None,
        }
    }

    /// From a Chinese piece letter (simplified or traditional).
    pub const fn from_zh_char(c: char) -> Option<Role> {
        match c {
            '兵' | '卒' => Some(Role::Pawn),
            '马' | '馬' => Some(Role::Knight),
            '象' => Some(Role::Bishop),
            '车' | '車' => Some(Role::Rook),
            '后' => Some(Role::Queen),
            '王' => Some(Role::King),
            _ => None,
        }
    }
}

/// A piece: a role and a colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

impl Piece {
    #[inline]
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// FEN letter: upper case for white.
    pub const fn char(self) -> char {
        match self.color {
            Color::White => self.role.upper_char(),
            Color::Black => self.role.char(),
        }
    }

    pub const fn from_char(c: char) -> Option<Piece> {
        match Role::from_char(c) {
            Some(role) => Some(Piece { color: if c.is_ascii_uppercase() { Color::White } else { Color::Black }, role }),
            None => None,
        }
    }
}

/// A file (column), `a` to `h`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum File {
    A = 0,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
}

impl File {
    pub const ALL: [File; 8] = [File::A, File::B, File::C, File::D, File::E, File::F, File::G, File::H];

    #[inline]
    pub const fn new(i: u32) -> File {
        File::ALL[(i & 7) as usize]
    }

    #[inline]
    pub const fn index(self) -> u32 {
        self as u32
    }

    pub const fn char(self) -> char {
        (b'a' + self as u8) as char
    }

    pub const fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='h' => Some(File::new(c as u32 - 'a' as u32)),
            _ => None,
        }
    }
}

/// A rank (row), `1` to `8`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rank {
    First = 0,
    Second,
    Third,
    Fourth,
    Fifth,
    Sixth,
    Seventh,
    Eighth,
}

impl Rank {
    pub const ALL: [Rank; 8] =
        [Rank::First, Rank::Second, Rank::Third, Rank::Fourth, Rank::Fifth, Rank::Sixth, Rank::Seventh, Rank::Eighth];

    #[inline]
    pub const fn new(i: u32) -> Rank {
        Rank::ALL[(i & 7) as usize]
    }

    #[inline]
    pub const fn index(self) -> u32 {
        self as u32
    }

    pub const fn char(self) -> char {
        (b'1' + self as u8) as char
    }

    pub const fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Some(Rank::new(c as u32 - '1' as u32)),
            _ => None,
        }
    }

    /// The same rank seen from the given side (rank 2 for white is rank 7 for black).
    #[inline]
    pub const fn relative(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => Rank::new(7 - self as u32),
        }
    }
}

/// A square, numbered `a1 = 0`, `b1 = 1`, …, `h8 = 63`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

macro_rules! square_consts {
    ($($name:ident = $i:expr),* $(,)?) => {
        impl Square { $(pub const $name: Square = Square($i);)* }
    };
}

square_consts! {
    A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6, H1 = 7,
    A2 = 8, B2 = 9, C2 = 10, D2 = 11, E2 = 12, F2 = 13, G2 = 14, H2 = 15,
    A3 = 16, B3 = 17, C3 = 18, D3 = 19, E3 = 20, F3 = 21, G3 = 22, H3 = 23,
    A4 = 24, B4 = 25, C4 = 26, D4 = 27, E4 = 28, F4 = 29, G4 = 30, H4 = 31,
    A5 = 32, B5 = 33, C5 = 34, D5 = 35, E5 = 36, F5 = 37, G5 = 38, H5 = 39,
    A6 = 40, B6 = 41, C6 = 42, D6 = 43, E6 = 44, F6 = 45, G6 = 46, H6 = 47,
    A7 = 48, B7 = 49, C7 = 50, D7 = 51, E7 = 52, F7 = 53, G7 = 54, H7 = 55,
    A8 = 56, B8 = 57, C8 = 58, D8 = 59, E8 = 60, F8 = 61, G8 = 62, H8 = 63,
}

impl Square {
    /// From an index `0..64`; higher bits are masked off.
    #[inline]
    pub const fn new(i: u32) -> Square {
        Square((i & 63) as u8)
    }

    /// From an index, or `None` when out of range.
    #[inline]
    pub const fn try_new(i: u32) -> Option<Square> {
        if i < 64 { Some(Square(i as u8)) } else { None }
    }

    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square((rank as u8) * 8 + file as u8)
    }

    /// `0..64`. The mask is free at run time and lets the compiler drop bounds checks on every table lookup.
    #[inline]
    pub const fn index(self) -> usize {
        (self.0 & 63) as usize
    }

    #[inline]
    pub const fn file(self) -> File {
        File::new(self.0 as u32 & 7)
    }

    #[inline]
    pub const fn rank(self) -> Rank {
        Rank::new(self.0 as u32 >> 3)
    }

    /// The square `delta` steps away in index space, if still on the board.
    #[inline]
    pub const fn offset(self, delta: i32) -> Option<Square> {
        let i = self.0 as i32 + delta;
        if i >= 0 && i < 64 { Some(Square(i as u8)) } else { None }
    }

    /// `a1`..`h8`.
    pub fn name(self) -> String {
        self.to_string()
    }

    /// Mirrors the square vertically (a1 ↔ a8).
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// Light (true) or dark (false) square. a1 is dark.
    #[inline]
    pub const fn is_light(self) -> bool {
        (self.0 / 8 + self.0 % 8) % 2 == 1
    }

    /// Chebyshev (king-step) distance.
    pub const fn distance(self, other: Square) -> u32 {
        let df = (self.0 as i32 % 8 - other.0 as i32 % 8).unsigned_abs();
        let dr = (self.0 as i32 / 8 - other.0 as i32 / 8).unsigned_abs();
        if df > dr { df } else { dr }
    }

    /// Parses `e4`; exactly two characters.
    pub fn parse(s: &str) -> Option<Square> {
        let mut it = s.chars();
        let f = File::from_char(it.next()?)?;
        let r = Rank::from_char(it.next()?)?;
        if it.next().is_some() {
            return None;
        }
        Some(Square::from_coords(f, r))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl core::str::FromStr for Square {
    type Err = ();
    fn from_str(s: &str) -> Result<Square, ()> {
        Square::parse(s).ok_or(())
    }
}
