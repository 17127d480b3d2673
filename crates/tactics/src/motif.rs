//! The motifs the tagger names: one id, a zh and an en name, the seeds' tactic it belongs to (if any) and the
//! lichess theme it corresponds to (docs/puzzles/tagger.md has the table, the definitions and where we differ on
//! purpose).

use std::fmt;

use serde::{Serialize, Serializer};

/// A motif a puzzle can teach. The order is the order of the catalogue ([`Motif::ALL`]): the seeds' eighteen
/// tactics first, then the other motifs, mates, special moves and kinds of move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Motif {
    // The seeds' eighteen tactics, in the seeds' order (some tactics have two ids: 吸引和引离, 闪击, 谋和, 捣毁).
    Exchange,
    Sacrifice,
    SacrificeRegain,
    Fork,
    DiscoveredAttack,
    Windmill,
    Intermezzo,
    Clearance,
    LineOpening,
    Interference,
    TrappedPiece,
    Pin,
    KingWalk,
    Attraction,
    Deflection,
    SelfBlock,
    CapturingDefender,
    Demolition,
    CrossCheck,
    StalemateTrick,
    PerpetualCheck,
    // Other tactics.
    AbsolutePin,
    RelativePin,
    Skewer,
    DiscoveredCheck,
    DoubleCheck,
    XRay,
    HangingPiece,
    // Mates.
    Mate,
    MateIn1,
    MateIn2,
    MateIn3,
    MateIn4,
    MateIn5,
    MateLong,
    BackRankMate,
    SmotheredMate,
    // Special moves.
    Promotion,
    UnderPromotion,
    EnPassant,
    Castling,
    // Kinds of move and position.
    Zugzwang,
    QuietMove,
    DefensiveMove,
}

/// One of the eighteen tactics the seeds name (兑子 … 谋和), with the motifs that make it up.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SeedTactic {
    /// 1..=18, the seeds' numbering.
    pub number: u8,
    pub zh: &'static str,
    pub en: &'static str,
    pub motifs: &'static [Motif],
}

/// The seeds' eighteen tactics, in their order, each with our motifs.
pub const SEED_TACTICS: [SeedTactic; 18] = [
    SeedTactic { number: 1, zh: "兑子", en: "Exchange", motifs: &[Motif::Exchange] },
    SeedTactic { number: 2, zh: "弃子", en: "Sacrifice", motifs: &[Motif::Sacrifice] },
    SeedTactic { number: 3, zh: "先弃后取", en: "Sacrifice and regain", motifs: &[Motif::SacrificeRegain] },
    SeedTactic { number: 4, zh: "双重打击", en: "Double attack", motifs: &[Motif::Fork] },
    SeedTactic {
        number: 5,
        zh: "闪击",
        en: "Discovered attack",
        motifs: &[Motif::DiscoveredAttack, Motif::DiscoveredCheck],
    },
    SeedTactic { number: 6, zh: "借力", en: "Windmill", motifs: &[Motif::Windmill] },
    SeedTactic { number: 7, zh: "顿挫", en: "Intermezzo", motifs: &[Motif::Intermezzo] },
    SeedTactic { number: 8, zh: "腾挪", en: "Clearance", motifs: &[Motif::Clearance] },
    SeedTactic { number: 9, zh: "开线", en: "Line opening", motifs: &[Motif::LineOpening] },
    SeedTactic { number: 10, zh: "拦截", en: "Interference", motifs: &[Motif::Interference] },
    SeedTactic { number: 11, zh: "封锁和困子", en: "Trapped piece", motifs: &[Motif::TrappedPiece] },
    SeedTactic { number: 12, zh: "牵制", en: "Pin", motifs: &[Motif::Pin] },
    SeedTactic { number: 13, zh: "迂回", en: "King walk", motifs: &[Motif::KingWalk] },
    SeedTactic {
        number: 14,
        zh: "吸引和引离",
        en: "Attraction and deflection",
        motifs: &[Motif::Attraction, Motif::Deflection],
    },
    SeedTactic { number: 15, zh: "阻塞", en: "Self-block", motifs: &[Motif::SelfBlock] },
    SeedTactic { number: 16, zh: "捣毁", en: "Demolition", motifs: &[Motif::Demolition, Motif::CapturingDefender] },
    SeedTactic { number: 17, zh: "解将还将", en: "Cross-check", motifs: &[Motif::CrossCheck] },
    SeedTactic {
        number: 18,
        zh: "谋和",
        en: "Drawing resources",
        motifs: &[Motif::StalemateTrick, Motif::PerpetualCheck],
    },
];

/// Everything the catalogue says about one motif.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// Our id, snake_case (stable: stored with puzzles and used in URLs).
    pub id: &'static str,
    pub zh: &'static str,
    pub en: &'static str,
    /// The lichess theme this motif is written as, if lichess has one.
    pub lichess: Option<&'static str>,
    /// What the motif is, in one line (zh, en) — the theme list's tooltip.
    pub about_zh: &'static str,
    pub about_en: &'static str,
}

macro_rules! catalogue {
    ($($m:ident => $id:literal, $zh:literal, $en:literal, $li:expr, $azh:literal, $aen:literal;)*) => {
        impl Motif {
            /// Every motif, in catalogue order.
            pub const ALL: &'static [Motif] = &[$(Motif::$m),*];

            /// The catalogue entry of this motif.
            pub const fn info(self) -> Info {
                match self {
                    $(Motif::$m => Info { id: $id, zh: $zh, en: $en, lichess: $li, about_zh: $azh, about_en: $aen },)*
                }
            }
        }
    };
}

catalogue! {
    Exchange => "exchange", "兑子", "Exchange", None,
        "用等值的子力交换，达到得子、争先或简化局面的目的。", "Trading pieces of equal value to win material, gain time or simplify.";
    Sacrifice => "sacrifice", "弃子", "Sacrifice", Some("sacrifice"),
        "主动送出子力，换取攻势、将杀或更大的利益。", "Giving up material for an attack, a mate or a bigger gain.";
    SacrificeRegain => "sacrifice_regain", "先弃后取", "Sacrifice and regain", None,
        "先弃子，几步之后再把子力得回来，甚至得更多。", "Giving material first and winning it back (or more) a few moves later.";
    Fork => "fork", "捉双", "Fork", Some("fork"),
        "一个子同时攻击对方两个或更多目标。后和马最常用来捉双。", "One piece attacks two or more targets at once; the queen and the knight fork best.";
    DiscoveredAttack => "discovered_attack", "闪击", "Discovered attack", Some("discoveredAttack"),
        "前面的子闪开，露出后面长程子的攻击。", "A piece moves away and uncovers an attack by the long-range piece behind it.";
    Windmill => "windmill", "借力", "Windmill", None,
        "靠长程子的闪将反复调动子力，每次闪将都得子。", "Repeated discovered checks let one piece take material again and again.";
    Intermezzo => "intermezzo", "顿挫", "Intermezzo", Some("intermezzo"),
        "在预料的着法之前插入一步强制着法（将军、捉子），赢得时间。", "A forcing move (check, threat) slipped in before the expected reply.";
    Clearance => "clearance", "腾挪", "Clearance", Some("clearance"),
        "用强制手段移开挡路的己方棋子，为其他子让出线路或格子。", "Moving one's own piece out of the way with tempo to free a line or square.";
    LineOpening => "line_opening", "开线", "Line opening", None,
        "通过兑兵或弃子打开直线、斜线，让长程子发挥作用。", "Opening a file or diagonal, by a pawn trade or a sacrifice, for the long-range pieces.";
    Interference => "interference", "拦截", "Interference", Some("interference"),
        "把子放在对方两个子之间，切断它们之间的保护或联系。", "Putting a piece between two enemy pieces to cut the line between them.";
    TrappedPiece => "trapped_piece", "困子", "Trapped piece", Some("trappedPiece"),
        "对方的子被围住无处可逃，只能被吃掉。", "An enemy piece has no safe square left and will be won.";
    Pin => "pin", "牵制", "Pin", None,
        "长程子攻击一个子，它一走开后面更重要的子就会被吃。", "A long-range piece attacks a piece that cannot move without exposing a more valuable one behind it.";
    KingWalk => "king_walk", "迂回", "King walk", None,
        "王绕过封锁线走向前方，参与进攻或护送兵升变。", "The king walks around a barrier to join the attack or escort a pawn.";
    Attraction => "attraction", "吸引", "Attraction", Some("attraction"),
        "用弃子把对方的王或子引到一个不利的格子上。", "A sacrifice lures the enemy king or a piece onto a fatal square.";
    Deflection => "deflection", "引离", "Deflection", Some("deflection"),
        "把承担防守任务的子引开，使它离开岗位。", "Luring a defender away from the square or piece it guards.";
    SelfBlock => "self_block", "阻塞", "Self-block", None,
        "迫使对方的子走到王旁边，堵住王的退路，常为闷杀服务。", "Forcing an enemy piece next to its own king so that it blocks the king's flight.";
    CapturingDefender => "capturing_defender", "消除保护", "Capturing the defender", Some("capturingDefender"),
        "吃掉保护某个子或某个格子的防守子，再得子或将杀。", "Taking the piece that guards something, then winning it or mating.";
    Demolition => "demolition", "捣毁", "Demolition", None,
        "用弃子破坏王前的兵形，暴露对方的王。", "A sacrifice that smashes the pawns in front of the king.";
    CrossCheck => "cross_check", "解将还将", "Cross-check", None,
        "应将的同时反将对方一军。", "Answering a check with a check.";
    StalemateTrick => "stalemate_trick", "谋和：逼和", "Stalemate trick", None,
        "劣势一方设法让自己无子可动而成逼和。", "The side that is behind leaves itself without a legal move: stalemate.";
    PerpetualCheck => "perpetual_check", "谋和：长将", "Perpetual check", None,
        "劣势一方不停将军，对方无法摆脱，成和棋。", "The side that is behind checks without end and draws.";
    AbsolutePin => "absolute_pin", "绝对牵制", "Absolute pin", Some("pin"),
        "被牵制的子后面是王，按规则它不能离开。", "The pinned piece shields the king and may not move off the line.";
    RelativePin => "relative_pin", "相对牵制", "Relative pin", None,
        "被牵制的子后面是后或车等，它走开就要丢更大的子。", "The pinned piece shields a queen or rook; moving it loses more.";
    Skewer => "skewer", "串击", "Skewer", Some("skewer"),
        "长程子攻击一个贵重的子，它走开后吃掉后面的子。", "A long-range piece attacks a valuable piece and takes the one behind it when it moves.";
    DiscoveredCheck => "discovered_check", "闪将", "Discovered check", Some("discoveredCheck"),
        "前面的子闪开，让后面的子将军。", "A piece moves away and uncovers a check.";
    DoubleCheck => "double_check", "双将", "Double check", Some("doubleCheck"),
        "两个子同时将军，只能走王。", "Two pieces give check at once; only a king move helps.";
    XRay => "x_ray", "X光攻击", "X-ray attack", Some("xRayAttack"),
        "长程子隔着一个子攻击或保护后面的格子。", "A long-range piece attacks or defends a square through another piece.";
    HangingPiece => "hanging_piece", "白吃子", "Hanging piece", Some("hangingPiece"),
        "对方的子没有保护（或保护不够），可以白吃。", "An enemy piece is unguarded (or not guarded enough) and can be taken.";
    Mate => "mate", "将死", "Checkmate", Some("mate"),
        "走成将死，赢得对局。", "The line ends in checkmate.";
    MateIn1 => "mate_in_1", "一步杀", "Mate in 1", Some("mateIn1"),
        "一步将死。", "Checkmate in one move.";
    MateIn2 => "mate_in_2", "两步杀", "Mate in 2", Some("mateIn2"),
        "两步将死。", "Checkmate in two moves.";
    MateIn3 => "mate_in_3", "三步杀", "Mate in 3", Some("mateIn3"),
        "三步将死。", "Checkmate in three moves.";
    MateIn4 => "mate_in_4", "四步杀", "Mate in 4", Some("mateIn4"),
        "四步将死。", "Checkmate in four moves.";
    MateIn5 => "mate_in_5", "五步杀", "Mate in 5", Some("mateIn5"),
        "五步将死。", "Checkmate in five moves.";
    MateLong => "mate_long", "多步杀", "Mate in 6 or more", Some("mateIn5"),
        "六步或更多步将死。", "Checkmate in six moves or more.";
    BackRankMate => "back_rank_mate", "底线杀", "Back-rank mate", Some("backRankMate"),
        "王被自己的兵挡在底线，车或后在底线将死它。", "The king is shut in on its back rank by its own pawns and mated there.";
    SmotheredMate => "smothered_mate", "闷杀", "Smothered mate", Some("smotheredMate"),
        "王被自己的子团团围住，马将死它。", "A knight mates a king that its own pieces hem in.";
    Promotion => "promotion", "升变", "Promotion", Some("promotion"),
        "兵走到底线升变，决定胜负。", "A pawn reaches the last rank and promotes.";
    UnderPromotion => "under_promotion", "低升变", "Underpromotion", Some("underPromotion"),
        "兵升变为马、车或象而不是后。", "A pawn promotes to a knight, rook or bishop instead of a queen.";
    EnPassant => "en_passant", "吃过路兵", "En passant", Some("enPassant"),
        "吃过路兵是解题的一步。", "An en passant capture is part of the solution.";
    Castling => "castling", "王车易位", "Castling", Some("castling"),
        "王车易位是解题的一步。", "Castling is part of the solution.";
    Zugzwang => "zugzwang", "无等着", "Zugzwang", Some("zugzwang"),
        "对方无论怎么走都会变坏，只因为必须走棋。", "The opponent must move, and every move makes things worse.";
    QuietMove => "quiet_move", "静着", "Quiet move", Some("quietMove"),
        "不将军、不吃子的一步，却带来无法防守的威胁。", "A move that neither checks nor captures, yet threatens something that cannot be stopped.";
    DefensiveMove => "defensive_move", "防守", "Defensive move", Some("defensiveMove"),
        "唯一能守住的一步，防止丢子或被将死。", "The one move that holds: it prevents a loss of material or a mate.";
}

impl Motif {
    /// The motif with this id.
    pub fn from_id(id: &str) -> Option<Motif> {
        Motif::ALL.iter().copied().find(|m| m.info().id == id)
    }

    pub fn id(self) -> &'static str {
        self.info().id
    }

    /// The seeds' tactic this motif belongs to, if any.
    pub fn seed_tactic(self) -> Option<&'static SeedTactic> {
        SEED_TACTICS.iter().find(|t| t.motifs.contains(&self))
    }

    /// The mate-in-N motif for a mate in `n` moves of the solver (1..=5, then [`Motif::MateLong`]).
    pub fn mate_in(n: usize) -> Motif {
        match n {
            0 | 1 => Motif::MateIn1,
            2 => Motif::MateIn2,
            3 => Motif::MateIn3,
            4 => Motif::MateIn4,
            5 => Motif::MateIn5,
            _ => Motif::MateLong,
        }
    }
}

impl fmt::Display for Motif {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl Serialize for Motif {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

/// Our motifs written as lichess theme names, without repeats, in catalogue order.
pub fn lichess_themes(motifs: &[Motif]) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    let mut sorted = motifs.to_vec();
    sorted.sort();
    for m in sorted {
        if let Some(t) = m.info().lichess
            && !out.contains(&t)
        {
            out.push(t);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_snake_case_and_round_trip() {
        let mut seen = std::collections::HashSet::new();
        for &m in Motif::ALL {
            let i = m.info();
            assert!(seen.insert(i.id), "duplicate id {}", i.id);
            assert!(i.id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'), "{}", i.id);
            assert_eq!(Motif::from_id(i.id), Some(m));
            assert!(!i.zh.is_empty() && !i.en.is_empty() && !i.about_zh.is_empty() && !i.about_en.is_empty());
        }
        assert_eq!(Motif::from_id("nope"), None);
    }

    #[test]
    fn every_seed_tactic_has_motifs_and_every_motif_at_most_one_tactic() {
        for (i, t) in SEED_TACTICS.iter().enumerate() {
            assert_eq!(t.number as usize, i + 1);
            assert!(!t.motifs.is_empty());
        }
        for &m in Motif::ALL {
            assert!(SEED_TACTICS.iter().filter(|t| t.motifs.contains(&m)).count() <= 1, "{m}");
        }
        assert_eq!(Motif::Fork.seed_tactic().map(|t| t.zh), Some("双重打击"));
        assert_eq!(Motif::Skewer.seed_tactic(), None);
    }

    #[test]
    fn lichess_names_are_deduplicated() {
        assert_eq!(lichess_themes(&[Motif::AbsolutePin, Motif::Pin, Motif::Fork]), vec!["fork", "pin"]);
        // Lichess's `pin` marks pins against the king: a pin to a queen or rook is ours alone.
        assert_eq!(lichess_themes(&[Motif::RelativePin, Motif::Pin]), Vec::<&str>::new());
        assert_eq!(lichess_themes(&[Motif::MateIn5, Motif::MateLong]), vec!["mateIn5"]);
        assert_eq!(lichess_themes(&[Motif::Exchange]), Vec::<&str>::new());
        assert_eq!(Motif::mate_in(2), Motif::MateIn2);
        assert_eq!(Motif::mate_in(9), Motif::MateLong);
    }
}
