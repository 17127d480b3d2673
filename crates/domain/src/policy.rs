//! Whether a game can be rated: the one place that decides it, for every way a game comes about (challenges by
//! link or by name, seeks, quick pairing, rematches, the Lichess-compatible API, the computer).
//!
//! A rated game needs a time limit that has a rating category, a clock that does not lose at once (not `0+0`), and
//! two registered accounts: not a guest, not the computer. As on Lichess, a bot account and a person play rated
//! games only where the server allows it (`guoxiang serve --rated-bot-games`); two bots always may.

use guoxiang_clock::Bonus;
use guoxiang_game::{PlayerRef, TimeControl};

use crate::error::Error;

/// A person asking for a game: who, and whether a guest.
#[derive(Clone, Debug)]
pub struct Entrant {
    pub player: PlayerRef,
    pub guest: bool,
}

/// Why a game cannot be rated.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// No time limit: no rating category.
    NoTimeLimit,
    /// `0+0`: lost on time at once.
    NoTimeAtAll,
    /// Against the computer.
    AgainstComputer,
    /// A guest (or the asker is one).
    NeedsAccount,
    /// A Chess960 game: our ratings are the standard game's.
    Chess960,
    /// A bot account against a person, on a server that does not allow it.
    BotVsHuman,
}

/// What the rules need to know of an account.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct AccountKind {
    pub guest: bool,
    pub bot: bool,
}

impl From<Refusal> for Error {
    fn from(r: Refusal) -> Error {
        match r {
            Refusal::NoTimeLimit => Error::bad_request(
                "not_ratable",
                "不限时的对局不能计算等级分",
                "games without a time limit cannot be rated",
            ),
            Refusal::NoTimeAtAll => Error::bad_request(
                "not_ratable",
                "0+0 的对局一开始就会超时，不能计算等级分",
                "a 0+0 game is lost on time at once and cannot be rated",
            ),
            Refusal::AgainstComputer => {
                Error::bad_request("not_ratable", "与电脑的对局不计等级分", "games against the computer are casual")
            }
            Refusal::NeedsAccount => {
                Error::forbidden("login_required", "计分对局需要登录", "rated games need an account")
            }
            Refusal::Chess960 => Error::bad_request(
                "not_ratable",
                "960 局不计等级分（等级分只算标准国际象棋）",
                "Chess960 games are casual (ratings are for standard chess)",
            ),
            Refusal::BotVsHuman => Error::bad_request(
                "not_ratable",
                "本服务器上，机器人账户和真人之间只下不计分的对局",
                "on this server, games between a bot account and a person are casual",
            ),
        }
    }
}

/// Whether an account may seek or join a pool: bot accounts may not (as on Lichess, bots play by challenge).
pub fn check_lobby(is_bot: bool) -> Result<(), Error> {
    if is_bot {
        return Err(Error::forbidden(
            "bot_not_in_lobby",
            "机器人账户不能约战或快速配对，只能通过挑战下棋",
            "bot accounts cannot seek or join a pool: they play by challenge",
        ));
    }
    Ok(())
}

/// Checks what the person asking for a rated game can know alone: the time control and their own account.
/// Called when a challenge, seek or pool entry is made, so the refusal comes at once and not when someone accepts.
pub fn check_request(rated: bool, tc: &TimeControl, guest: bool) -> Result<(), Refusal> {
    if !rated {
        return Ok(());
    }
    if guoxiang_ratings::RatingSpeed::of(tc.speed()).is_none() {
        return Err(Refusal::NoTimeLimit);
    }
    if no_time_at_all(tc) {
        return Err(Refusal::NoTimeAtAll);
    }
    if guest {
        return Err(Refusal::NeedsAccount);
    }
    Ok(())
}

/// Checks a rated pairing of two accounts for the bot rule: a bot and a person only where `bots_vs_people` (the
/// server's `--rated-bot-games`) allows it.
pub fn check_bots(rated: bool, a_bot: bool, b_bot: bool, bots_vs_people: bool) -> Result<(), Refusal> {
    if rated && a_bot != b_bot && !bots_vs_people {
        return Err(Refusal::BotVsHuman);
    }
    Ok(())
}

/// Checks the start of a rated game: Chess960 games are casual.
pub fn check_variant(rated: bool, variant: &guoxiang_game::Variant) -> Result<(), Refusal> {
    if rated && matches!(variant, guoxiang_game::Variant::Chess960 { .. }) {
        return Err(Refusal::Chess960);
    }
    Ok(())
}

/// Checks a rated game about to be created: both players registered accounts, and the bot rule
/// ([`check_bots`]). `kind_of` says what kind of account a user id is (for the players that are not the computer);
/// its error is the caller's.
pub async fn check_game<F, Fut, E>(
    rated: bool,
    tc: &TimeControl,
    [white, black]: [&PlayerRef; 2],
    bots_vs_people: bool,
    kind_of: F,
) -> Result<(), E>
where
    F: Fn(String) -> Fut,
    Fut: Future<Output = Result<AccountKind, E>>,
    E: From<Refusal>,
{
    if !rated {
        return Ok(());
    }
    check_request(rated, tc, false)?;
    if white.is_engine || black.is_engine {
        return Err(Refusal::AgainstComputer.into());
    }
    let mut bots = [false; 2];
    for (bot, p) in bots.iter_mut().zip([white, black]) {
        let kind = kind_of(p.id.clone()).await?;
        if kind.guest {
            return Err(Refusal::NeedsAccount.into());
        }
        *bot = kind.bot;
    }
    Ok(check_bots(rated, bots[0], bots[1], bots_vs_people)?)
}

/// A time control whose clock has no time and no bonus: the first player to move loses on time at once.
fn no_time_at_all(tc: &TimeControl) -> bool {
    match tc {
        TimeControl::Periods(p) => {
            let first = p.first();
            first.seconds == 0 && matches!(first.bonus, Bonus::None | Bonus::Fischer(0))
        }
        TimeControl::Sandclock { seconds } => *seconds == 0,
        TimeControl::Unlimited | TimeControl::Correspondence(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(s: &str) -> TimeControl {
        TimeControl::from_pgn(s).unwrap()
    }

    #[test]
    fn what_can_be_rated() {
        assert!(check_request(true, &tc("300+3"), false).is_ok());
        assert!(check_request(false, &tc("-"), true).is_ok(), "casual games need nothing");
        assert_eq!(check_request(true, &tc("-"), false), Err(Refusal::NoTimeLimit));
        assert_eq!(check_request(true, &tc("0+0"), false), Err(Refusal::NoTimeAtAll));
        assert!(check_request(true, &tc("0+2"), false).is_ok(), "an increment gives time");
        assert_eq!(check_request(true, &tc("300+3"), true), Err(Refusal::NeedsAccount));
        let c960 = guoxiang_game::Variant::chess960(0).unwrap();
        assert_eq!(check_variant(true, &c960), Err(Refusal::Chess960));
        assert!(check_variant(false, &c960).is_ok() && check_variant(true, &guoxiang_game::Variant::Standard).is_ok());
        // The codes on the wire.
        let code = |r: Refusal| Error::from(r).code;
        assert_eq!(
            [
                Refusal::NoTimeLimit,
                Refusal::NoTimeAtAll,
                Refusal::AgainstComputer,
                Refusal::NeedsAccount,
                Refusal::Chess960,
                Refusal::BotVsHuman
            ]
            .map(code),
            ["not_ratable", "not_ratable", "not_ratable", "login_required", "not_ratable", "not_ratable"]
        );
    }

    #[tokio::test]
    async fn rated_games_need_two_registered_people() {
        let human = |id: &str| PlayerRef::human(id.to_owned(), id.to_owned());
        let registered = |id: String| async move {
            Ok::<_, Error>(AccountKind { guest: id.starts_with("guest"), bot: id.starts_with("bot") })
        };
        let t = tc("180+2");
        let (alice, bob, guest, bot_a, bot_b) =
            (human("alice"), human("bob"), human("guest-1"), human("bot-a"), human("bot-b"));
        let check = |w, b, allow| check_game(true, &t, [w, b], allow, registered);
        assert!(check(&alice, &bob, false).await.is_ok());
        let e = check(&alice, &guest, false).await.unwrap_err();
        assert_eq!(e.code, "login_required");
        let engine =
            PlayerRef { id: "engine-3".into(), name: "guoxiang 3".into(), is_engine: true, engine_level: Some(3) };
        let e = check(&engine, &bob, false).await.unwrap_err();
        assert_eq!(e.code, "not_ratable");
        assert!(check_game(false, &t, [&engine, &guest], false, registered).await.is_ok());
        // Bots: against each other always; against a person only where the server allows it; casual always.
        assert!(check(&bot_a, &bot_b, false).await.is_ok());
        let e = check(&bot_a, &alice, false).await.unwrap_err();
        assert_eq!((e.code, e.kind), ("not_ratable", crate::error::kind_of_status(400)));
        assert!(e.en.contains("casual"), "{}", e.en);
        assert!(check(&alice, &bot_a, true).await.is_ok());
        assert!(check_game(false, &t, [&bot_a, &alice], false, registered).await.is_ok());
        assert_eq!(check_bots(true, true, false, false), Err(Refusal::BotVsHuman));
        assert_eq!(check_bots(true, false, false, false), Ok(()));
    }
}
