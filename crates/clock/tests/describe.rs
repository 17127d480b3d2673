//! Human-readable forms and speed classification.

use guoxiang_clock::{Lang, Speed, TimeControl};

fn tc(tag: &str) -> TimeControl {
    TimeControl::from_pgn(tag).expect("valid tag")
}

#[test]
fn short_form_and_sentences_for_every_kind() {
    // tag, Display, English, Chinese
    let table = [
        ("-", "unlimited", "no time limit", "不限时"),
        ("300", "5", "5 min", "5 分钟"),
        ("300+3", "5+3", "5 min, +3 s per move", "5 分钟，每步加 3 秒"),
        ("15+0", "¼+0", "15 s, +0 s per move", "15 秒，每步加 0 秒"),
        ("90+1", "1½+1", "1 min 30 s, +1 s per move", "1 分 30 秒，每步加 1 秒"),
        ("45", "¾", "45 s", "45 秒"),
        ("100+2", "100s+2", "1 min 40 s, +2 s per move", "1 分 40 秒，每步加 2 秒"),
        ("0+1", "0+1", "0 min, +1 s per move", "0 分钟，每步加 1 秒"),
        ("300+d5", "5+d5", "5 min, 5 s delay per move", "5 分钟，每步延时 5 秒"),
        ("300+b5", "5+b5", "5 min, 5 s Bronstein delay per move", "5 分钟，每步布朗斯坦延时 5 秒"),
        (
            "40/5400+30:1800+30",
            "40/90+30 then 30+30",
            "90 min for 40 moves, then 30 min, +30 s per move",
            "40 步 90 分钟，之后 30 分钟，每步加 30 秒",
        ),
        (
            "40/5400+30:1800",
            "40/90+30 then 30",
            "90 min for 40 moves (+30 s per move), then 30 min",
            "40 步 90 分钟（每步加 30 秒），之后 30 分钟",
        ),
        (
            "40/7200:20/3600",
            "40/120 then 20/60",
            "120 min for 40 moves, then 60 min for every 20 moves",
            "40 步 120 分钟，之后每 20 步 60 分钟",
        ),
        ("40/5400", "40/90", "90 min for every 40 moves", "每 40 步 90 分钟"),
        ("1/60", "1/1", "1 min for every move", "每 1 步 1 分钟"),
        ("1/60:600", "1/1 then 10", "1 min for 1 move, then 10 min", "1 步 1 分钟，之后 10 分钟"),
        ("*180", "hourglass 3", "hourglass, 3 min each", "沙漏计时，每方 3 分钟"),
        ("3d", "3 days/move", "3 days per move", "每步 3 天"),
        (
            "1d<=10d",
            "1 day/move (max 10 days)",
            "1 day per move, unused time kept up to 10 days",
            "每步 1 天，未用时间可累积，最多 10 天",
        ),
    ];
    for (tag, short, en, zh) in table {
        let tc = tc(tag);
        assert_eq!(tc.to_string(), short, "{tag}");
        assert_eq!(tc.describe(Lang::En), en, "{tag}");
        assert_eq!(tc.describe(Lang::Zh), zh, "{tag}");
    }
}

#[test]
fn speed_follows_lichess_thresholds() {
    let table = [
        ("0", Speed::UltraBullet),
        ("15+0", Speed::UltraBullet),
        ("29", Speed::UltraBullet),
        ("30", Speed::Bullet),
        ("0+3", Speed::Bullet),
        ("60+1", Speed::Bullet),
        ("179", Speed::Bullet),
        ("180", Speed::Blitz),
        ("300+3", Speed::Blitz),
        ("479", Speed::Blitz),
        ("480", Speed::Rapid),
        ("300+d5", Speed::Rapid),
        ("600+5", Speed::Rapid),
        ("1499", Speed::Rapid),
        ("1500", Speed::Classical),
        ("40/5400+30:1800+30", Speed::Classical),
        ("4294967295+4294967295", Speed::Classical),
        // First period only: 40 × 0 + 120.
        ("40/120:3600", Speed::Bullet),
        ("*180", Speed::Blitz),
        ("*60", Speed::Bullet),
        ("3d", Speed::Correspondence),
        ("-", Speed::Unlimited),
    ];
    for (tag, speed) in table {
        assert_eq!(tc(tag).speed(), speed, "{tag}");
    }
    assert_eq!(tc("300+3").estimated_seconds(), Some(420));
    assert_eq!(tc("3d").estimated_seconds(), None);
    assert_eq!(Speed::UltraBullet.to_string(), "ultrabullet");
}
