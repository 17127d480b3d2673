// SPDX-License-Identifier: GPL-3.0-or-later
//! The JSON answers (and request bodies) of the server's own HTTP API, the one the web UI calls (docs/api.md
//! "The server's own HTTP API"): accounts ([`account`]), profiles and the archive ([`archive`]), the engine's
//! one-off analysis and the opening name ([`analyse`]), the opening explorer ([`explorer`]), the 学棋 course
//! ([`learn`]), the tactics trainer ([`puzzle`]), tournaments ([`tournament`]) and the server's own figures ([`stats`]). Reviews have their
//! module, [`crate::review`].
//!
//! The server builds its answers from these types and serializes them, and the web client's types are generated
//! from them (`web/src/protocol_http.ts`, [`http_typescript`], written by `gen-ts`; a test fails when the committed
//! file is stale), so the two cannot drift apart. The Lichess-compatible API (`/api/account`, `/api/board/…`,
//! `/api/challenge/…`) keeps Lichess's shapes and is not described here.
//!
//! Request bodies whose fields the server checks one by one (to say which field is wrong) are described here for
//! the client; the server's tests send them as serialized from these types.

pub mod account;
pub mod analyse;
pub mod archive;
pub mod explorer;
pub mod learn;
pub mod puzzle;
pub mod stats;
pub mod tournament;

use serde::{Deserialize, Serialize};
use ts_rs::{Config, TS};

pub use account::*;
pub use analyse::*;
pub use archive::*;
pub use explorer::*;
pub use learn::*;
pub use puzzle::*;
pub use stats::*;
pub use tournament::*;

/// Where the generated bindings go, from the workspace root.
pub const TS_HTTP_OUTPUT_PATH: &str = "web/src/protocol_http.ts";

/// A text in both languages.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
pub struct Bilingual {
    pub zh: String,
    pub en: String,
}

impl From<&guoxiang_core::Text> for Bilingual {
    fn from(t: &guoxiang_core::Text) -> Bilingual {
        Bilingual { zh: t.zh.clone(), en: t.en.clone() }
    }
}

/// `{"ok": true}`: what `POST /api/logout` and `DELETE /api/tokens/{id}` answer.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct OkAnswer {
    pub ok: bool,
}

/// The body of every error answer (4xx and 5xx) of the HTTP API, the Lichess-compatible one included.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ApiErrorBody {
    /// The message in English (the field Lichess clients read).
    pub error: String,
    /// A stable code (`bad_request`, `not_found`, `login_required`, `rate_limited`, …).
    pub code: String,
    /// The message in Chinese.
    pub message_zh: String,
}

macro_rules! decls {
    ($cfg:expr, $($t:ty),* $(,)?) => {
        vec![$((<$t as TS>::docs(), <$t as TS>::decl($cfg))),*]
    };
}

/// The TypeScript bindings of the HTTP API (`web/src/protocol_http.ts`). They use `Color` of
/// `web/src/protocol.ts` and `EngineScore` of `web/src/protocol_analysis.ts`.
pub fn http_typescript() -> String {
    let cfg = Config::new().with_large_int("number");
    let decls = decls!(
        &cfg,
        Bilingual,
        OkAnswer,
        ApiErrorBody,
        // account
        Credentials,
        AccountUser,
        AuthAnswer,
        Perf,
        Me,
        Level,
        NewToken,
        TokenCreated,
        TokenInfo,
        TokenList,
        PasswordChange,
        SessionsEnded,
        // archive
        Profile,
        GameCount,
        RatingPoint,
        ExportUser,
        ExportPlayer,
        ExportPlayers,
        ExportClock,
        ExportOpening,
        ExportGame,
        GamesPage,
        GamePlayer,
        GameView,
        // analyse
        AnalyseRequest,
        AnalyseLine,
        AnalyseAnswer,
        OpeningName,
        // explorer
        ExplorerSource,
        OpeningFamily,
        ExplorerMove,
        ExplorerOpening,
        ExplorerAnswer,
        // learn
        LearnStepKind,
        LearnAnswerItem,
        LearnStep,
        LearnLesson,
        LearnChapter,
        LearnCourse,
        LearnTry,
        LearnReason,
        LearnVerdict,
        LessonProgress,
        LearnProgress,
        // puzzle
        PuzzleMotif,
        PuzzleView,
        PuzzleAnswer,
        SeedTheme,
        MotifTheme,
        PuzzleThemes,
        PuzzleTryRequest,
        PuzzleVerdict,
        GlickoRating,
        RoundRequest,
        RoundRating,
        RoundPuzzle,
        RoundAnswer,
        DashboardRating,
        DashboardRound,
        DashboardTheme,
        PuzzleDashboard,
        LichessPerf,
        LichessPuzzlePlayer,
        LichessPuzzleGame,
        LichessPuzzleData,
        LichessPuzzle,
        // stats
        ServerStats,
        // tournament
        TournamentSystem,
        TournamentMode,
        TournamentStatus,
        TournamentResult,
        ByeKind,
        NewTournament,
        TrfImport,
        ResultEntry,
        PlayerNumber,
        AddPlayer,
        AddArbiter,
        PlayerList,
        ForbiddenPair,
        TournamentPlayer,
        TournamentBoard,
        TournamentBye,
        TournamentRound,
        StandingRow,
        CrossCell,
        CrossLine,
        TournamentView,
        TournamentSummary,
        TournamentList,
        ArenaMark,
        ArenaSheetEntry,
        ArenaRow,
        ArenaGame,
        ArenaView,
        TournamentLink,
    );
    crate::ts::bindings_file_with_imports(
        "crates/protocol/src/http",
        &[("./protocol", &["Color", "GameStatus"]), ("./protocol_analysis", &["EngineScore"])],
        decls,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every type the module's files declare is in the bindings, nothing is `any`, and every type the bindings use
    /// is declared there or imported.
    #[test]
    fn bindings_declare_every_type_and_use_only_known_ones() {
        let ts = http_typescript();
        for bad in [": any", "<any>", "| any", ": unknown", "bigint"] {
            assert!(!ts.contains(bad), "{bad} in the bindings");
        }
        let sources = [
            include_str!("mod.rs"),
            include_str!("account.rs"),
            include_str!("analyse.rs"),
            include_str!("archive.rs"),
            include_str!("explorer.rs"),
            include_str!("learn.rs"),
            include_str!("puzzle.rs"),
            include_str!("stats.rs"),
            include_str!("tournament.rs"),
        ];
        let mut declared = 0;
        for src in sources {
            let mut lines = src.lines().peekable();
            while let Some(line) = lines.next() {
                if !(line.starts_with("#[derive(") && line.ends_with(", TS)]")) {
                    continue;
                }
                let item =
                    lines.find(|l| l.starts_with("pub struct ") || l.starts_with("pub enum ")).unwrap_or_default();
                let name: String = item
                    .split_whitespace()
                    .nth(2)
                    .unwrap_or_default()
                    .chars()
                    .take_while(|c| c.is_alphanumeric())
                    .collect();
                assert!(ts.contains(&format!("export type {name} = ")), "{name} is not in http_typescript()");
                declared += 1;
            }
        }
        assert!(declared >= 60, "only {declared} types found");
        let imported = ["Color", "GameStatus", "EngineScore", "Array", "Record"];
        let code: String = ts
            .lines()
            .filter(|l| !l.trim_start().starts_with("//") && !l.trim_start().starts_with('*') && !l.starts_with("/**"))
            .collect::<Vec<_>>()
            .join("\n");
        for part in code.split([':', '<', '|', '&', '(', ',']).skip(1) {
            let name: String = part.trim_start().chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
            if name.starts_with(|c: char| c.is_ascii_uppercase()) && !imported.contains(&name.as_str()) {
                assert!(ts.contains(&format!("export type {name} = ")), "{name} is used but not declared");
            }
        }
    }

    /// The answers write the field names the web client and Lichess-style clients read.
    #[test]
    fn answers_write_the_documented_field_names() {
        let game = ExportGame {
            id: "g1".into(),
            rated: true,
            variant: "standard".into(),
            speed: "blitz".into(),
            perf: "blitz".into(),
            created_at: 1,
            last_move_at: 2,
            status: "mate".into(),
            source: "ai".into(),
            players: ExportPlayers {
                white: ExportPlayer { user: None, ai_level: Some(3), rating: None, rating_diff: None },
                black: ExportPlayer {
                    user: Some(ExportUser { name: "Li".into(), id: "li".into(), title: None }),
                    ai_level: None,
                    rating: Some(1500),
                    rating_diff: Some(-7),
                },
            },
            moves: "f3 e5 g4 Qh4#".into(),
            winner: Some(crate::Color::Black),
            clock: Some(ExportClock { initial: 180, increment: 2, total_time: 260 }),
            initial_fen: None,
            opening: None,
            pgn: None,
        };
        let j = serde_json::to_value(&game).unwrap();
        assert_eq!(j["createdAt"], 1);
        assert_eq!(j["lastMoveAt"], 2);
        assert_eq!(j["players"]["white"], serde_json::json!({"aiLevel": 3}));
        assert_eq!(
            j["players"]["black"],
            serde_json::json!({"user": {"name": "Li", "id": "li"}, "rating": 1500, "ratingDiff": -7})
        );
        assert_eq!(j["clock"]["totalTime"], 260);
        assert_eq!(j["winner"], "black");
        assert_eq!(j["source"], "ai");
        assert!(j.get("initialFen").is_none() && j.get("opening").is_none() && j.get("pgn").is_none(), "{j}");

        let v = PuzzleVerdict::Solved { reply: None };
        assert_eq!(serde_json::to_value(&v).unwrap(), serde_json::json!({"verdict": "solved"}));
        let v = PuzzleVerdict::Wrong { reason: Bilingual { zh: "不".into(), en: "no".into() }, refutation: None };
        assert_eq!(
            serde_json::to_value(&v).unwrap(),
            serde_json::json!({"verdict": "wrong", "reason": {"zh": "不", "en": "no"}, "refutation": null})
        );

        let me = Me {
            user: AccountUser {
                id: "li".into(),
                username: "Li".into(),
                guest: false,
                admin: false,
                points: 12,
                level_zh: "一级".into(),
                level_en: "Level 1".into(),
                created_at: 5,
            },
            ratings: [("blitz".to_owned(), Perf { games: 3, rating: 1510, rd: 200, prov: true })].into(),
            playing: vec![],
        };
        let j = serde_json::to_value(&me).unwrap();
        assert_eq!(j["username"], "Li");
        assert_eq!(j["ratings"]["blitz"]["rd"], 200);
        assert!(j.get("user").is_none(), "the user's fields are flattened: {j}");

        let family = serde_json::to_value(OpeningFamily::SemiOpen).unwrap();
        assert_eq!(family, "semi-open");
        assert_eq!(OpeningFamily::from_id("semi-open"), Some(OpeningFamily::SemiOpen));
        assert_eq!(OpeningFamily::from_id("half-open"), None);
        let lp = LichessPuzzleData {
            id: "x".into(),
            rating: 1500,
            plays: 0,
            initial_ply: 10,
            solution: vec![],
            themes: vec![],
            fen: String::new(),
            motifs: vec![],
            number: None,
        };
        assert_eq!(serde_json::to_value(&lp).unwrap()["initialPly"], 10);
    }

    /// Request bodies refuse unknown fields, and read what the web client sends.
    #[test]
    fn requests_read_what_the_client_sends() {
        let r: AnalyseRequest = serde_json::from_str(r#"{"fen": "8/8/8/8/8/8/8/K1k5 w - - 0 1", "depth": 8}"#).unwrap();
        assert_eq!((r.depth, r.moves), (Some(8), None));
        assert!(serde_json::from_str::<AnalyseRequest>(r#"{"deep": 8}"#).is_err());
        assert!(serde_json::from_str::<Credentials>(r#"{"username": "a", "password": "b", "x": 1}"#).is_err());
        let t: NewToken = serde_json::from_str(r#"{"scopes": ["board:play"]}"#).unwrap();
        assert_eq!(t.description, "");
        let r: RoundRequest =
            serde_json::from_str(r#"{"win": true, "rating": {"rating": 1500, "deviation": 350}}"#).unwrap();
        assert_eq!(r.rating.and_then(|g| g.volatility), None);
        assert!(serde_json::from_str::<LearnTry>(r#"{"lesson": "a", "step": 0, "moves": [], "extra": 1}"#).is_err());
    }
}
