//! Studies (issue 42) against SQLite and, when `GUOXIANG_TEST_POSTGRES` holds a URL, PostgreSQL: create, read,
//! update, delete, and the lists by owner, by class, shared with a student and public; who may read one.

use guoxiang_store::StudyWrite;

#[macro_use]
mod common;
use common::TestDb;

both!(studies);

async fn studies(db: &TestDb) {
    let store = db.open().await;
    for name in ["Teacher", "Sam", "Stranger"] {
        store.create_user(name, None, false, 1).await.unwrap();
    }
    store.create_class("c1", "teacher", "一班", 1).await.unwrap();
    store.add_class_student("c1", "sam", 2).await.unwrap();
    let w = |title, visibility, class_id, body| StudyWrite { title, visibility, class_id, body };
    let a = store.create_study("s1", "teacher", w("Openings", "private", None, "{}"), 10).await.unwrap();
    assert_eq!((a.owner_name.as_str(), a.body.as_str(), a.created_at_ms, a.updated_at_ms), ("Teacher", "{}", 10, 10));
    store.create_study("s2", "teacher", w("Mates", "class", Some("c1"), "{\"x\":1}"), 11).await.unwrap();
    store.create_study("s3", "stranger", w("Mine", "public", None, "{}"), 12).await.unwrap();
    assert!(store.create_study("s1", "teacher", w("again", "private", None, "{}"), 13).await.is_err());

    let ids = |v: Vec<guoxiang_store::StudyRow>| v.into_iter().map(|s| s.id).collect::<Vec<_>>();
    assert_eq!(ids(store.studies_owned("teacher").await.unwrap()), ["s2", "s1"]);
    assert_eq!(ids(store.studies_of_class("c1").await.unwrap()), ["s2"]);
    assert_eq!(ids(store.studies_shared_with("sam").await.unwrap()), ["s2"]);
    assert!(store.studies_shared_with("stranger").await.unwrap().is_empty());
    assert!(store.studies_shared_with("teacher").await.unwrap().is_empty(), "one's own are not shared with one");
    assert_eq!(ids(store.public_studies().await.unwrap()), ["s3"]);
    assert!(store.studies_owned("teacher").await.unwrap()[0].body.is_empty(), "lists have no bodies");

    let s1 = store.study("s1").await.unwrap().unwrap();
    let s2 = store.study("s2").await.unwrap().unwrap();
    let s3 = store.study("s3").await.unwrap().unwrap();
    assert!(store.may_read_study(&s1, Some("teacher")).await.unwrap());
    assert!(!store.may_read_study(&s1, Some("sam")).await.unwrap());
    assert!(store.may_read_study(&s2, Some("sam")).await.unwrap());
    assert!(!store.may_read_study(&s2, Some("stranger")).await.unwrap());
    assert!(!store.may_read_study(&s2, None).await.unwrap());
    assert!(store.may_read_study(&s3, None).await.unwrap());

    // Update: the class goes private, Sam loses it.
    assert!(store.update_study("s2", w("Mates 2", "private", None, "{\"x\":2}"), 20).await.unwrap());
    let s2 = store.study("s2").await.unwrap().unwrap();
    assert_eq!(
        (s2.title.as_str(), s2.body.as_str(), s2.updated_at_ms, s2.created_at_ms),
        ("Mates 2", "{\"x\":2}", 20, 11)
    );
    assert!(!store.may_read_study(&s2, Some("sam")).await.unwrap());
    assert!(store.studies_shared_with("sam").await.unwrap().is_empty());
    assert!(!store.update_study("nope", w("x", "private", None, "{}"), 20).await.unwrap());

    // Deleting a class leaves its studies, no longer shared.
    store.update_study("s2", w("Mates 2", "class", Some("c1"), "{}"), 21).await.unwrap();
    store.delete_class("c1").await.unwrap();
    let s2 = store.study("s2").await.unwrap().unwrap();
    assert_eq!(s2.class_id, None);
    assert!(!store.may_read_study(&s2, Some("sam")).await.unwrap());

    assert!(store.delete_study("s1").await.unwrap());
    assert!(!store.delete_study("s1").await.unwrap());
    assert!(store.study("s1").await.unwrap().is_none());
    store.close().await;
}
