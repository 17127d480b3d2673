//! A `play` step of the course judged from the game the learner played (issue 42): such a step is a game against
//! the computer from the step's position, so `POST /api/learn/try` takes `{"lesson", "step", "game": ID}` and the
//! server reads the stored game — the learner's own, against the computer at the step's level, from the step's
//! position, within its move budget, and with the goal met (won, drawn, finished, or the first promotion the
//! learner's) — so that a teacher sees a lesson with such a step done only when it was played.

use guoxiang_learn::{PlayGoal, Step, StepKind};
use guoxiang_store::{GameRow, MoveRow};

/// Why a played game does not complete a step (`None`: it does).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Missed {
    /// Not a `play` step.
    NotPlay,
    /// The learner is not a player of the game, or the other side is not the computer at the step's level.
    NotYours,
    /// The game did not start from the step's position.
    OtherPosition,
    /// Not decided yet (or aborted).
    NotOver,
    /// More of the learner's moves than the step allows.
    OverBudget,
    /// Over, but not as the goal asks.
    GoalMissed,
}

impl Missed {
    /// `(code, zh, en)`.
    pub fn text(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Missed::NotPlay => ("not_play_step", "这一步不是对局", "this step is not a game"),
            Missed::NotYours => (
                "not_your_game",
                "这不是你按这一步的级别与电脑下的对局",
                "not your game against the computer at this step's level",
            ),
            Missed::OtherPosition => {
                ("other_position", "对局不是从这一步的局面开始的", "the game did not start from this step's position")
            }
            Missed::NotOver => ("game_not_over", "对局还没有结束", "the game is not over"),
            Missed::OverBudget => ("over_budget", "走的步数超过了这一步的限制", "more moves than the step allows"),
            Missed::GoalMissed => ("goal_missed", "没有达到这一步的目标", "the step's goal was not met"),
        }
    }
}

/// The first four fields of a FEN (placement, turn, castling, en passant): the position, without the counters.
fn position_of(fen: &str) -> Vec<&str> {
    fen.split_whitespace().take(4).collect()
}

/// The FEN a stored game started from (`None`: the usual start).
fn start_fen(row: &GameRow) -> Option<String> {
    match serde_json::from_str::<guoxiang_game::Variant>(&row.variant_json).ok()? {
        guoxiang_game::Variant::FromPosition { fen } | guoxiang_game::Variant::Chess960 { fen } => Some(fen),
        guoxiang_game::Variant::Standard => None,
    }
}

/// Whether the game `row` (with its `moves`) played by `user_id` completes the `play` step `step`.
pub fn judge_played(step: &Step, user_id: &str, row: &GameRow, moves: &[MoveRow]) -> Result<(), Missed> {
    let StepKind::Play { level, goal, max_moves } = &step.kind else { return Err(Missed::NotPlay) };
    let (white, engine) = if row.white_id == user_id {
        (true, row.black_engine_level)
    } else if row.black_id == user_id {
        (false, row.white_engine_level)
    } else {
        return Err(Missed::NotYours);
    };
    if engine != Some(i64::from(*level)) {
        return Err(Missed::NotYours);
    }
    let start = start_fen(row);
    if start.as_deref().map(position_of) != Some(position_of(&step.fen)) {
        return Err(Missed::OtherPosition);
    }
    // Whose move each ply is: the start's side to move first.
    let white_first = position_of(&step.fen).get(1) != Some(&"b");
    let mine = |ply0: usize| ply0.is_multiple_of(2) == (white_first == white);
    let my_moves = (0..moves.len()).filter(|i| mine(*i)).count();
    if max_moves.is_some_and(|m| my_moves > m as usize) {
        return Err(Missed::OverBudget);
    }
    if *goal == PlayGoal::Promote {
        // The first promotion decides, whoever made it; the game may then have been left.
        return match moves.iter().position(|m| m.uci.len() == 5) {
            Some(i) if mine(i) => Ok(()),
            Some(_) => Err(Missed::GoalMissed),
            None => Err(Missed::NotOver),
        };
    }
    if row.status != "finished" {
        return Err(Missed::NotOver);
    }
    let me = if white { "white" } else { "black" };
    let met = match goal {
        PlayGoal::Win => row.winner.as_deref() == Some(me),
        PlayGoal::Draw => row.winner.is_none(),
        PlayGoal::Finish | PlayGoal::Promote => true,
    };
    if met { Ok(()) } else { Err(Missed::GoalMissed) }
}

#[cfg(test)]
mod tests {
    use guoxiang_learn::Text;

    use super::*;

    fn step(goal: PlayGoal, max_moves: Option<u32>) -> Step {
        let t = || Text { zh: String::new(), en: String::new() };
        Step {
            fen: "4k3/P7/8/8/8/8/7p/4K3 b - - 0 1".into(),
            prompt: t(),
            hint: t(),
            success: t(),
            orientation: None,
            solutions: vec![],
            kind: StepKind::Play { level: 2, goal, max_moves },
        }
    }

    fn game(status: &str, winner: Option<&str>) -> GameRow {
        GameRow {
            id: "g".into(),
            white_id: "computer".into(),
            white_name: "Computer".into(),
            black_id: "ann".into(),
            black_name: "Ann".into(),
            white_engine_level: Some(2),
            black_engine_level: None,
            rated: false,
            time_control: "-".into(),
            speed: "correspondence".into(),
            variant_json: r#"{"kind":"from_position","fen":"4k3/P7/8/8/8/8/7p/4K3 b - - 3 9"}"#.into(),
            status: status.into(),
            result: None,
            termination: None,
            winner: winner.map(str::to_owned),
            created_at_ms: 0,
            ended_at_ms: None,
            state_json: "{}".into(),
            version: 0,
            white_rating: None,
            black_rating: None,
            white_rating_diff: None,
            black_rating_diff: None,
            white_points_diff: None,
            black_points_diff: None,
        }
    }

    fn moves(ucis: &[&str]) -> Vec<MoveRow> {
        let mv = |(i, u): (usize, &&str)| MoveRow {
            game_id: "g".into(),
            ply: i as i64 + 1,
            uci: (*u).into(),
            san: String::new(),
            at_ms: 0,
            clock_ms: None,
            used_ms: 0,
        };
        ucis.iter().enumerate().map(mv).collect()
    }

    #[test]
    fn the_first_promotion_decides_a_race_and_the_budget_counts_the_learners_moves() {
        let g = game("aborted", None);
        // Black (Ann) moves first here: her h2h1q is ply 1, White's a7a8q ply 2.
        assert_eq!(judge_played(&step(PlayGoal::Promote, None), "ann", &g, &moves(&["h2h1q", "a7a8q"])), Ok(()));
        let theirs = moves(&["e8d7", "a7a8q"]);
        assert_eq!(judge_played(&step(PlayGoal::Promote, None), "ann", &g, &theirs), Err(Missed::GoalMissed));
        assert_eq!(judge_played(&step(PlayGoal::Promote, None), "ann", &g, &moves(&["e8d7"])), Err(Missed::NotOver));
        let long = moves(&["e8d7", "e1d1", "d7c7", "d1c1", "h2h1q"]);
        assert_eq!(judge_played(&step(PlayGoal::Promote, Some(2)), "ann", &g, &long), Err(Missed::OverBudget));
        assert_eq!(judge_played(&step(PlayGoal::Promote, None), "bob", &g, &long), Err(Missed::NotYours));
        // Other goals need the game over, as the goal asks.
        assert_eq!(judge_played(&step(PlayGoal::Win, None), "ann", &g, &[]), Err(Missed::NotOver));
        let won = game("finished", Some("black"));
        assert_eq!(judge_played(&step(PlayGoal::Win, None), "ann", &won, &[]), Ok(()));
        assert_eq!(judge_played(&step(PlayGoal::Draw, None), "ann", &won, &[]), Err(Missed::GoalMissed));
        assert_eq!(judge_played(&step(PlayGoal::Finish, None), "ann", &won, &[]), Ok(()));
        let standard = GameRow { variant_json: r#"{"kind":"standard"}"#.into(), ..won };
        assert_eq!(judge_played(&step(PlayGoal::Finish, None), "ann", &standard, &[]), Err(Missed::OtherPosition));
    }
}
