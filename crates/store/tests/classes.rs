// SPDX-License-Identifier: GPL-3.0-or-later
//! Classes (issue 42) against SQLite (a file in a temporary folder) and, when `GUOXIANG_TEST_POSTGRES` holds a URL,
//! against PostgreSQL: classes, members, join codes, accounts created by a teacher, password resets, and who may
//! challenge a student.

use guoxiang_store::StoreError;

#[macro_use]
mod common;
use common::TestDb;

both!(classes_members_and_codes, student_accounts_resets_and_protection);

async fn classes_members_and_codes(db: &TestDb) {
    let store = db.open().await;
    for name in ["Teacher", "Other", "Pupil"] {
        store.create_user(name, Some("hash"), false, 1).await.unwrap();
    }
    let c = store.create_class("c1", "teacher", "三年级二班", 10).await.unwrap();
    assert_eq!((c.join_code.clone(), c.allow_challenges), (None, false));
    assert_eq!(store.class("c1").await.unwrap(), Some(c.clone()));
    assert_eq!(store.class("nope").await.unwrap(), None);
    store.create_class("c2", "other", "Club", 20).await.unwrap();
    // Members.
    assert!(store.add_class_student("c1", "pupil", 30).await.unwrap());
    assert!(!store.add_class_student("c1", "pupil", 31).await.unwrap());
    assert!(store.is_class_student("c1", "pupil").await.unwrap());
    assert!(!store.is_class_student("c2", "pupil").await.unwrap());
    let members = store.class_members("c1").await.unwrap();
    assert_eq!(members.len(), 1);
    assert_eq!(
        (members[0].name.as_str(), members[0].created_by_teacher, members[0].must_change_password),
        ("Pupil", false, false)
    );
    assert_eq!(members[0].joined_at_ms, 30);
    let taught = store.classes_taught("teacher").await.unwrap();
    assert_eq!((taught.len(), taught[0].students), (1, 1));
    let joined = store.classes_joined("pupil").await.unwrap();
    assert_eq!(joined.iter().map(|s| s.class.id.as_str()).collect::<Vec<_>>(), ["c1"]);
    assert_eq!(store.all_classes().await.unwrap().len(), 2);
    // Changes.
    assert!(store.rename_class("c1", "Renamed").await.unwrap());
    assert!(store.set_class_allow_challenges("c1", true).await.unwrap());
    assert!(!store.rename_class("nope", "x").await.unwrap());
    let c = store.class("c1").await.unwrap().unwrap();
    assert_eq!((c.name.as_str(), c.allow_challenges), ("Renamed", true));
    // Join codes are unique; closing one frees it.
    assert!(store.set_class_join_code("c1", Some("ABCD2345")).await.unwrap());
    assert!(!store.set_class_join_code("c2", Some("ABCD2345")).await.unwrap());
    assert!(store.set_class_join_code("c1", Some("ABCD2345")).await.unwrap());
    assert_eq!(store.class_by_join_code("ABCD2345").await.unwrap().map(|c| c.id), Some("c1".to_owned()));
    assert!(matches!(store.set_class_join_code("nope", Some("ZZZZ2345")).await, Err(StoreError::NotFound(_))));
    assert!(store.set_class_join_code("c1", None).await.unwrap());
    assert_eq!(store.class_by_join_code("ABCD2345").await.unwrap(), None);
    assert!(store.set_class_join_code("c2", Some("ABCD2345")).await.unwrap());
    // Removing and deleting keep the accounts.
    assert!(store.remove_class_student("c1", "pupil").await.unwrap());
    assert!(!store.remove_class_student("c1", "pupil").await.unwrap());
    store.add_class_student("c1", "pupil", 40).await.unwrap();
    assert!(store.delete_class("c1").await.unwrap());
    assert!(!store.delete_class("c1").await.unwrap());
    assert!(store.classes_joined("pupil").await.unwrap().is_empty());
    assert!(store.user("pupil").await.unwrap().is_some());
    store.close().await;
}

async fn student_accounts_resets_and_protection(db: &TestDb) {
    let store = db.open().await;
    for name in ["teacher", "stranger", "joiner"] {
        store.create_user(name, Some("hash"), false, 1).await.unwrap();
    }
    let class = store.create_class("c1", "teacher", "A", 10).await.unwrap();
    let kid = store.create_student_account(&class, "Panda427", "h1", 50).await.unwrap();
    assert_eq!((kid.id.as_str(), kid.is_guest), ("panda427", false));
    let mate = store.create_student_account(&class, "tiger100", "h2", 50).await.unwrap();
    // A taken name writes nothing.
    assert_eq!(store.create_student_account(&class, "PANDA427", "h3", 51).await, Err(StoreError::NameTaken));
    assert_eq!(store.class_members("c1").await.unwrap().len(), 2);
    assert_eq!(store.user("panda427").await.unwrap().unwrap().password_hash.as_deref(), Some("h1"));
    assert_eq!(store.student_teacher("panda427").await.unwrap().as_deref(), Some("teacher"));
    assert_eq!(store.student_teacher("joiner").await.unwrap(), None);
    store.add_class_student("c1", "joiner", 60).await.unwrap();
    let members = store.class_members("c1").await.unwrap();
    let by: Vec<_> = members.iter().map(|m| (m.user_id.as_str(), m.created_by_teacher)).collect();
    assert_eq!(by, [("joiner", false), ("panda427", true), ("tiger100", true)]);
    // Resets.
    assert!(!store.password_reset_pending(&kid.id).await.unwrap());
    store.set_password_reset(&kid.id, "teacher", 70).await.unwrap();
    store.set_password_reset(&kid.id, "teacher", 71).await.unwrap();
    assert!(store.password_reset_pending(&kid.id).await.unwrap());
    assert!(store.class_members("c1").await.unwrap().iter().any(|m| m.user_id == kid.id && m.must_change_password));
    assert!(store.clear_password_reset(&kid.id).await.unwrap());
    assert!(!store.clear_password_reset(&kid.id).await.unwrap());
    // Tokens end.
    store.create_token("t1", &kid.id, "", &["board:play".to_owned()], 80).await.unwrap();
    assert_eq!(store.delete_user_tokens(&kid.id).await.unwrap(), 1);
    assert_eq!(store.token_user("t1").await.unwrap(), None);
    // Protection: the teacher, a classmate and anyone playing a non-student may; a stranger may not, until the
    // class allows challenges.
    assert!(store.may_challenge("teacher", &kid.id).await.unwrap());
    assert!(store.may_challenge(&mate.id, &kid.id).await.unwrap());
    assert!(store.may_challenge("joiner", &kid.id).await.unwrap());
    assert!(store.may_challenge(&kid.id, "stranger").await.unwrap());
    assert!(!store.may_challenge("stranger", &kid.id).await.unwrap());
    let other = store.create_class("c2", "stranger", "B", 10).await.unwrap();
    store.add_class_student(&other.id, &kid.id, 90).await.unwrap();
    // The kid joined the stranger's class: its teacher may now.
    assert!(store.may_challenge("stranger", &kid.id).await.unwrap());
    store.remove_class_student(&other.id, &kid.id).await.unwrap();
    assert!(!store.may_challenge("stranger", &kid.id).await.unwrap());
    store.set_class_allow_challenges("c1", true).await.unwrap();
    assert!(store.may_challenge("stranger", &kid.id).await.unwrap());
    store.close().await;
}
