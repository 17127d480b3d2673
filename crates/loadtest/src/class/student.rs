//! One student: logs in with the card, does lesson steps, puzzles and games against the computer in an order of
//! its own, then waits for its games' reviews.

use std::sync::Arc;

use guoxiang_core::Position;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};
use tokio::task::JoinHandle;

use super::lessons::StepPlan;
use super::setup::Card;
use super::stats::Count;
use super::{ClassCtx, RequestKind, computer, student_done};
use crate::http::parse_auth_answer;
use crate::moves::{position_from_fen, random_move};

/// How often a student makes a wrong try or move before the right one.
const WRONG_RATE: f64 = 0.15;

/// A logged-in student.
struct Student {
    ctx: Arc<ClassCtx>,
    session: String,
    rng: StdRng,
    /// What this student got done, for "did everything".
    accepted: u64,
    solved: u64,
    finished_games: u64,
    reviews: Vec<JoinHandle<bool>>,
}

#[derive(Copy, Clone, Debug)]
enum Work {
    Lessons,
    Puzzles,
    Games,
}

/// The student's whole run; the `n`-th student's random choices come from the seed and `n`.
pub(crate) async fn run(ctx: Arc<ClassCtx>, card: Card, n: u64) {
    let mut rng = StdRng::seed_from_u64(ctx.opts.seed.wrapping_add(n));
    let stagger = super::STAGGER.mul_f64(ctx.opts.think_scale * rng.random::<f64>());
    tokio::time::sleep(stagger).await;
    let session = match login(&ctx, &card).await {
        Ok(s) => s,
        Err(e) => {
            ctx.stats.error(e);
            student_done(&ctx, false);
            return;
        }
    };
    ctx.stats.add(Count::LoggedIn);
    let mut s = Student { ctx, session, rng, accepted: 0, solved: 0, finished_games: 0, reviews: Vec::new() };
    let mut work = [Work::Lessons, Work::Puzzles, Work::Games];
    work.shuffle(&mut s.rng);
    for w in work {
        match w {
            Work::Lessons => s.lessons().await,
            Work::Puzzles => s.puzzles().await,
            Work::Games => s.games().await,
        }
    }
    let mut ready = 0;
    for h in std::mem::take(&mut s.reviews) {
        ready += u64::from(h.await.unwrap_or(false));
    }
    let o = &s.ctx.opts;
    let complete = (o.lesson_steps == 0 || s.accepted > 0)
        && (o.puzzles == 0 || s.solved > 0)
        && s.finished_games == o.games as u64
        && ready == s.finished_games;
    student_done(&s.ctx, complete);
}

async fn login(ctx: &ClassCtx, card: &Card) -> Result<String, String> {
    let body = json!({"username": card.username, "password": card.password});
    let r = ctx.api(Some(RequestKind::Login), "POST", "/api/login", None, Some(&body)).await?;
    Ok(parse_auth_answer(&r, "POST /api/login")?.session)
}

impl Student {
    async fn post(&self, kind: RequestKind, path: &str, body: &Value) -> Result<Value, String> {
        let r = self.ctx.api(Some(kind), "POST", path, Some(&self.session), Some(body)).await?;
        r.json(&format!("POST {path}"))
    }

    /// `lesson_steps` steps in course order from a random one, each to its end.
    async fn lessons(&mut self) {
        let n = self.ctx.plans.len();
        if n == 0 {
            return;
        }
        let first = self.rng.random_range(0..n);
        for k in 0..self.ctx.opts.lesson_steps {
            let plan = self.ctx.plans[(first + k) % n].clone();
            if let Err(e) = self.step(&plan).await {
                self.ctx.stats.error(format!("lesson {} step {}: {e}", plan.lesson, plan.step));
            }
        }
    }

    async fn step(&mut self, plan: &StepPlan) -> Result<(), String> {
        for entry in &plan.entries {
            if let Some(wrong) = entry.wrong.as_ref().filter(|_| self.rng.random_bool(WRONG_RATE)) {
                self.ctx.think(&mut self.rng).await;
                let v = self.post(RequestKind::LearnTry, "/api/learn/try", &plan.body(wrong)).await?;
                if v["ok"] != json!(false) {
                    return Err(format!("a wrong try was accepted: {v}"));
                }
                self.ctx.stats.add(Count::TriesWrong);
            }
            self.ctx.think(&mut self.rng).await;
            let v = self.post(RequestKind::LearnTry, "/api/learn/try", &plan.body(&entry.right)).await?;
            if v["ok"] != json!(true) {
                return Err(format!("a right try was refused: {v}"));
            }
            self.accepted += 1;
            self.ctx.stats.add(Count::TriesAccepted);
            if v["done"] == json!(true) {
                self.ctx.stats.add(Count::StepsDone);
            }
        }
        Ok(())
    }

    async fn puzzles(&mut self) {
        for _ in 0..self.ctx.opts.puzzles {
            if let Err(e) = self.puzzle().await {
                self.ctx.stats.error(format!("puzzle: {e}"));
            }
        }
    }

    /// The next puzzle, solved move by move (a wrong move now and then), and its round.
    async fn puzzle(&mut self) -> Result<(), String> {
        let path = "/api/puzzle/next?format=guoxiang";
        let r = self.ctx.api(Some(RequestKind::PuzzleNext), "GET", path, Some(&self.session), None).await?;
        let p = r.json("GET /api/puzzle/next")?["puzzle"].clone();
        let id = p["id"].as_str().ok_or("the puzzle has no id")?.to_owned();
        let line: Vec<String> = p["moves"]
            .as_array()
            .ok_or("the puzzle has no moves")?
            .iter()
            .filter_map(|m| m.as_str().map(str::to_owned))
            .collect();
        let mut pos = position_from_fen(p["fen"].as_str().ok_or("the puzzle has no fen")?)?;
        let (mut clean, mut solved) = (true, false);
        let try_path = format!("/api/puzzle/{id}/try");
        for i in (1..line.len()).step_by(2) {
            pos = play(&pos, &line[i - 1])?;
            if self.rng.random_bool(WRONG_RATE)
                && let Some(wrong) = random_move(&pos, &mut self.rng).filter(|m| *m != line[i])
            {
                self.ctx.think(&mut self.rng).await;
                let moves = [&line[1..i], std::slice::from_ref(&wrong)].concat();
                let v = self.post(RequestKind::PuzzleTry, &try_path, &json!({"moves": moves})).await?;
                if v["verdict"] != "solved" {
                    clean = false;
                    self.ctx.stats.add(Count::PuzzleTriesWrong);
                }
            }
            self.ctx.think(&mut self.rng).await;
            let v = self.post(RequestKind::PuzzleTry, &try_path, &json!({"moves": &line[1..=i]})).await?;
            let want = if i + 1 >= line.len() { "solved" } else { "correct" };
            if v["verdict"] != want {
                return Err(format!("{id}: the solution's move {} was judged {v}", line[i]));
            }
            solved = want == "solved";
            pos = play(&pos, &line[i])?;
        }
        if !solved {
            return Err(format!("{id}: the line ends without the solver's last move"));
        }
        self.solved += 1;
        self.ctx.stats.add(Count::PuzzlesSolved);
        self.post(RequestKind::PuzzleRound, &format!("/api/puzzle/{id}/round"), &json!({"win": clean})).await?;
        Ok(())
    }

    async fn games(&mut self) {
        for _ in 0..self.ctx.opts.games {
            self.ctx.think(&mut self.rng).await;
            match computer::play_game(&self.ctx, &self.session, &mut self.rng).await {
                Ok((game_id, ended)) => {
                    self.finished_games += 1;
                    let ctx = Arc::clone(&self.ctx);
                    let session = self.session.clone();
                    self.reviews.push(tokio::spawn(super::review::watch(ctx, session, game_id, ended)));
                }
                Err(e) => self.ctx.stats.error(format!("game against the computer: {e}")),
            }
        }
    }
}

/// The position after a UCI move the server gave.
fn play(pos: &Position, uci: &str) -> Result<Position, String> {
    let m = pos.parse_uci(uci).map_err(|e| format!("the puzzle's move {uci} is not legal here: {e}"))?;
    Ok(pos.after(m))
}
