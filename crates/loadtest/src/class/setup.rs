//! The teacher's part: one account registered, one class, the students' accounts made in it (their login cards).

use rand::Rng;
use rand::distr::Alphanumeric;
use serde_json::json;

use super::ClassCtx;
use crate::http::parse_auth_answer;

/// A card sheet: the most student accounts made by one request.
const CARDS_PER_REQUEST: usize = 60;

/// A student's login card.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Card {
    pub username: String,
    pub password: String,
}

/// Registers a teacher (a fresh name each run), creates a class and makes `opts.students` accounts in it.
pub(crate) async fn class_with_students(ctx: &ClassCtx) -> Result<Vec<Card>, String> {
    let (name, password) = {
        let mut rng = rand::rng();
        let name = format!("lt_teacher_{:08x}", rng.random::<u32>());
        let password: String = (&mut rng).sample_iter(Alphanumeric).take(24).map(char::from).collect();
        (name, password)
    };
    let body = json!({"username": name, "password": password});
    let r = ctx.api(None, "POST", "/api/register", None, Some(&body)).await?;
    let teacher = parse_auth_answer(&r, "POST /api/register")?.session;
    let body = json!({"name": format!("loadtest {name}")});
    let class = ctx.api(None, "POST", "/api/class", Some(&teacher), Some(&body)).await?.json("POST /api/class")?;
    let id = class["id"].as_str().ok_or("POST /api/class: the answer has no id")?.to_owned();
    let path = format!("/api/class/{id}/students");
    let mut cards = Vec::with_capacity(ctx.opts.students);
    while cards.len() < ctx.opts.students {
        let count = (ctx.opts.students - cards.len()).min(CARDS_PER_REQUEST);
        let r = ctx.api(None, "POST", &path, Some(&teacher), Some(&json!({"count": count}))).await?;
        cards.extend(read_cards(&r.json("POST /api/class/{id}/students")?)?);
    }
    Ok(cards)
}

/// The cards of `{"students": [{"username", "password"}]}`.
fn read_cards(v: &serde_json::Value) -> Result<Vec<Card>, String> {
    let what = "POST /api/class/{id}/students";
    let list = v["students"].as_array().ok_or(format!("{what}: the answer has no students"))?;
    list.iter()
        .map(|s| match (s["username"].as_str(), s["password"].as_str()) {
            (Some(u), Some(p)) => Ok(Card { username: u.to_owned(), password: p.to_owned() }),
            _ => Err(format!("{what}: a student without username or password")),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_are_read() {
        let v = json!({"students": [{"username": "panda427", "password": "kabomizu38"}]});
        assert_eq!(read_cards(&v).unwrap(), vec![Card { username: "panda427".into(), password: "kabomizu38".into() }]);
        assert!(read_cards(&json!({})).unwrap_err().contains("no students"));
        assert!(read_cards(&json!({"students": [{"username": "x"}]})).unwrap_err().contains("without"));
    }
}
