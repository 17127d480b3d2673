//! Earned lesson steps (issue 42) against SQLite and, when `GUOXIANG_TEST_POSTGRES` holds a URL, PostgreSQL: misses
//! count until a step is earned, the first acceptance wins with the misses before it, later tries change nothing,
//! and each account has its own.

use guoxiang_store::stars_for;

#[macro_use]
mod common;
use common::TestDb;

both!(earned_steps);

async fn earned_steps(db: &TestDb) {
    let store = db.open().await;
    store.create_user("Alice", None, false, 1).await.unwrap();
    store.create_user("Bob", None, false, 1).await.unwrap();
    assert!(store.learn_earned("alice").await.unwrap().is_empty());

    // Two wrong tries at step 1, then the judge accepts it: earned with 2 misses.
    store.add_learn_miss("alice", "rook", 1).await.unwrap();
    store.add_learn_miss("alice", "rook", 1).await.unwrap();
    assert!(store.earn_learn_step("alice", "rook", 1, 100).await.unwrap());
    // Step 0 at once, without a miss.
    assert!(store.earn_learn_step("alice", "rook", 0, 110).await.unwrap());
    // Later tries change nothing: the first acceptance wins, misses after it are not counted.
    store.add_learn_miss("alice", "rook", 1).await.unwrap();
    assert!(!store.earn_learn_step("alice", "rook", 1, 200).await.unwrap());
    let got = store.learn_earned("alice").await.unwrap();
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(
        got["rook"].iter().map(|(s, e)| (*s, e.misses, e.at_ms)).collect::<Vec<_>>(),
        vec![(0, 0, 110), (1, 2, 100)]
    );

    // Bob's misses are his own.
    store.add_learn_miss("bob", "rook", 0).await.unwrap();
    assert!(store.earn_learn_step("bob", "rook", 0, 300).await.unwrap());
    let all = store.learn_earned_of(&["alice".into(), "bob".into(), "carol".into()]).await.unwrap();
    assert_eq!(all["bob"]["rook"][&0].misses, 1);
    assert_eq!(all["alice"]["rook"][&0].misses, 0);
    assert!(!all.contains_key("carol"));
    assert!(store.learn_earned_of(&[]).await.unwrap().is_empty());

    assert_eq!([stars_for(0), stars_for(1), stars_for(2), stars_for(3)], [3, 2, 2, 1]);
    store.close().await;
}
