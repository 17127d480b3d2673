//! Teachers and classes (课堂, issue 42): a registered account creates classes, adds students by creating accounts
//! for them (a generated user name and password each, for login cards) or by a join code, removes them, and resets a
//! student's password (the student must then choose a new one before anything else: [`password_change_required`]).
//!
//! Only a class's teacher (its owner) sees its students and changes it; a student of the class sees its name and
//! teacher; anyone else gets 404, as if it did not exist. A teacher may reset the password of any student of one of
//! their classes (a member, whether the teacher created the account or it joined by code).
//!
//! Accounts a teacher created are protected ([`check_pairing`]): only their teacher and classmates may challenge
//! them, or play their seeks, unless one of their classes allows challenges.

use axum::Json;
use axum::Router;
use axum::extract::{Path, State};
use axum::http::{Method, StatusCode, header};
use axum::response::{AppendHeaders, IntoResponse, Response};
use axum::routing::{delete, get, post};
use guoxiang_store::{ClassRow, Store, StoreError};
use rand::Rng;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::AppState;
use crate::api_error::{ApiError, ApiResult};
use crate::auth::{self, Auth};

/// Who may create classes (`guoxiang serve --teachers`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Teachers {
    /// Every registered account (the default).
    #[default]
    Anyone,
    /// The server's administrators only.
    AdminOnly,
}

impl std::str::FromStr for Teachers {
    type Err = String;

    fn from_str(s: &str) -> Result<Teachers, String> {
        match s {
            "anyone" => Ok(Teachers::Anyone),
            "admin-only" => Ok(Teachers::AdminOnly),
            _ => Err(format!("{s:?}: expected anyone or admin-only")),
        }
    }
}

/// Students created at once at most.
pub const MAX_NEW_STUDENTS: u32 = 60;
/// A class name's length in characters, after trimming.
pub const MAX_CLASS_NAME: usize = 60;
/// Join codes: this many characters from [`CODE_ALPHABET`].
pub const CODE_LEN: usize = 8;
/// Letters and digits nobody mistakes for another (no I, L, O, 0, 1).
pub const CODE_ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/// Routes: classes, their students and join codes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/class", post(create).get(list))
        .route("/api/class/join", post(join))
        .route("/api/class/{id}", get(show).patch(update).delete(remove))
        .route("/api/class/{id}/students", post(add_students))
        .route("/api/class/{id}/join-code", post(renew_join_code).delete(close_join_code))
        .route("/api/class/{id}/students/{username}", delete(remove_student))
        .route("/api/class/{id}/students/{username}/password", post(reset_password))
}

fn now_ms() -> i64 {
    guoxiang_domain::time::now_ms() as i64
}

fn no_store(answer: impl IntoResponse) -> Response {
    (AppendHeaders([(header::CACHE_CONTROL, "no-store")]), answer).into_response()
}

fn class_not_found() -> ApiError {
    ApiError::not_found("这个班级", "class")
}

fn teacher_only() -> ApiError {
    ApiError::forbidden("class_teacher_only", "只有班级的老师能这样做", "only the class's teacher can do this")
}

fn registered(a: &Auth) -> Result<(), ApiError> {
    if a.user.is_guest {
        return Err(ApiError::forbidden(
            "login_required",
            "游客不能使用班级，请先注册",
            "guests cannot use classes; register first",
        ));
    }
    Ok(())
}

/// The class `id` if `a` is its teacher; its students get 403, anyone else 404.
async fn taught(state: &AppState, a: &Auth, id: &str) -> Result<ClassRow, ApiError> {
    let class = state.store.class(id).await?.ok_or_else(class_not_found)?;
    if class.owner_id == a.user.id {
        return Ok(class);
    }
    if state.store.is_class_student(id, &a.user.id).await? {
        return Err(teacher_only());
    }
    Err(class_not_found())
}

/// A class name: trimmed, 1 to [`MAX_CLASS_NAME`] characters, no control characters.
pub fn check_class_name(name: &str) -> Result<String, ApiError> {
    let name = name.trim();
    let n = name.chars().count();
    if n == 0 || n > MAX_CLASS_NAME || name.chars().any(char::is_control) {
        return Err(ApiError::bad_request(
            "bad_name",
            format!("班级名称（name）须为 1 到 {MAX_CLASS_NAME} 个字符，不能有控制字符"),
            format!("name: a class name has 1 to {MAX_CLASS_NAME} characters and no control characters"),
        ));
    }
    Ok(name.to_owned())
}

/// A join code as typed: upper-cased, spaces and dashes dropped; `None` if it cannot be a code.
pub fn normal_join_code(code: &str) -> Option<String> {
    let code: String = code.chars().filter(|c| !c.is_whitespace() && *c != '-').collect::<String>().to_uppercase();
    (code.len() == CODE_LEN && code.bytes().all(|b| CODE_ALPHABET.contains(&b))).then_some(code)
}

fn random_from(alphabet: &[u8], n: usize) -> String {
    let mut rng = rand::rng();
    (0..n).map(|_| char::from(alphabet[rng.random_range(0..alphabet.len())])).collect()
}

/// A new random join code.
pub fn new_join_code() -> String {
    random_from(CODE_ALPHABET, CODE_LEN)
}

/// Animals for students' user names: short, ascii, easy to read aloud.
const NAME_WORDS: &[&str] = &[
    "panda", "tiger", "eagle", "koala", "otter", "crane", "whale", "zebra", "camel", "horse", "rabbit", "falcon",
    "dolphin", "lion", "bear", "fox", "owl", "deer", "swan", "wolf", "seal", "yak", "lynx", "hawk",
];

/// A readable user name: an animal and three digits (`panda427`).
pub fn new_student_name() -> String {
    let mut rng = rand::rng();
    let word = NAME_WORDS[rng.random_range(0..NAME_WORDS.len())];
    format!("{word}{}", rng.random_range(100..1000))
}

/// A password for a login card: four syllables and two digits (`kabomizu38`), without letters and digits that look
/// alike; checked against the password rules ([`auth::check_password`]).
pub fn new_student_password(username: &str) -> String {
    const CONSONANTS: &[u8] = b"bdfghkmnprstvz";
    const VOWELS: &[u8] = b"aeiou";
    const DIGITS: &[u8] = b"23456789";
    loop {
        let mut p = String::new();
        for _ in 0..4 {
            p.push_str(&random_from(CONSONANTS, 1));
            p.push_str(&random_from(VOWELS, 1));
        }
        p.push_str(&random_from(DIGITS, 2));
        if auth::check_password(&p, username).is_ok() {
            return p;
        }
    }
}

/// Creates `count` accounts in `class` (generated names and passwords, marked as created by its teacher) and
/// returns their names and passwords. Used by the HTTP API and by `guoxiang class add-students`.
pub async fn create_students(store: &Store, class: &ClassRow, count: u32) -> Result<Vec<(String, String)>, ApiError> {
    let mut made = Vec::new();
    let mut tries = 0;
    while made.len() < count as usize {
        tries += 1;
        if tries > count * 20 + 100 {
            return Err(ApiError::internal("create_students", "no free user names left"));
        }
        let name = new_student_name();
        if store.user(&guoxiang_store::user_id_of(&name)).await?.is_some() {
            continue;
        }
        let password = new_student_password(&name);
        let p = password.clone();
        let hash = tokio::task::spawn_blocking(move || auth::hash_password(&p))
            .await
            .map_err(|e| ApiError::internal("argon2 task", e))??;
        match store.create_student_account(class, &name, &hash, now_ms()).await {
            Ok(_) => made.push((name, password)),
            Err(StoreError::NameTaken) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Ok(made)
}

#[derive(Debug, Deserialize)]
pub struct NewClass {
    pub name: String,
}

/// `POST /api/class` `{"name"}`: a new class taught by the caller (a registered account; only administrators with
/// `--teachers admin-only`).
pub async fn create(State(state): State<AppState>, a: Auth, Json(c): Json<NewClass>) -> ApiResult<Response> {
    registered(&a)?;
    if state.config.teachers == Teachers::AdminOnly && !a.user.is_admin {
        return Err(ApiError::forbidden(
            "teachers_admin_only",
            "这个服务器上只有管理员能创建班级",
            "on this server only administrators can create classes",
        ));
    }
    let name = check_class_name(&c.name)?;
    let id = auth::new_secret()[..12].to_owned();
    let class = state.store.create_class(&id, &a.user.id, &name, now_ms()).await?;
    let body = json!({"id": class.id, "name": class.name, "join_code": null, "allow_challenges": false});
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

/// `GET /api/class`: the classes the caller teaches and those they are a student of.
pub async fn list(State(state): State<AppState>, a: Auth) -> ApiResult<Json<Value>> {
    let mut out = Vec::new();
    let taught = state.store.classes_taught(&a.user.id).await?;
    let joined = state.store.classes_joined(&a.user.id).await?;
    for (role, rows) in [("teacher", taught), ("student", joined)] {
        for s in rows {
            out.push(json!({
                "id": s.class.id, "name": s.class.name, "owner": owner_name(&state, &s.class.owner_id).await?,
                "role": role, "students": s.students,
            }));
        }
    }
    Ok(Json(json!({ "classes": out })))
}

async fn owner_name(state: &AppState, owner_id: &str) -> Result<String, ApiError> {
    Ok(state.store.user(owner_id).await?.map_or_else(|| owner_id.to_owned(), |u| u.name))
}

/// `GET /api/class/{id}`: all of it for its teacher (the students too); its name and teacher for a student of it;
/// 404 for anyone else.
pub async fn show(State(state): State<AppState>, a: Auth, Path(id): Path<String>) -> ApiResult<Json<Value>> {
    let class = state.store.class(&id).await?.ok_or_else(class_not_found)?;
    let owner = owner_name(&state, &class.owner_id).await?;
    if class.owner_id != a.user.id {
        if state.store.is_class_student(&id, &a.user.id).await? {
            return Ok(Json(json!({"id": class.id, "name": class.name, "owner": owner})));
        }
        return Err(class_not_found());
    }
    let students: Vec<Value> = state
        .store
        .class_members(&id)
        .await?
        .into_iter()
        .map(|m| {
            json!({
                "username": m.name, "name": m.name, "created_by_teacher": m.created_by_teacher,
                "must_change_password": m.must_change_password, "joined_at": m.joined_at_ms,
            })
        })
        .collect();
    Ok(Json(json!({
        "id": class.id, "name": class.name, "owner": owner, "join_code": class.join_code,
        "allow_challenges": class.allow_challenges, "students": students,
    })))
}

#[derive(Debug, Deserialize)]
pub struct ClassChange {
    pub name: Option<String>,
    pub allow_challenges: Option<bool>,
}

/// `PATCH /api/class/{id}` `{"name"?, "allow_challenges"?}` (the teacher): answers the class as `show` does.
pub async fn update(
    State(state): State<AppState>,
    a: Auth,
    Path(id): Path<String>,
    Json(c): Json<ClassChange>,
) -> ApiResult<Json<Value>> {
    taught(&state, &a, &id).await?;
    let name = c.name.as_deref().map(check_class_name).transpose()?;
    if let Some(name) = name {
        state.store.rename_class(&id, &name).await?;
    }
    if let Some(allow) = c.allow_challenges {
        state.store.set_class_allow_challenges(&id, allow).await?;
    }
    show(State(state), a, Path(id)).await
}

/// `DELETE /api/class/{id}` (the teacher): the class, its members and homework go; the accounts stay.
pub async fn remove(State(state): State<AppState>, a: Auth, Path(id): Path<String>) -> ApiResult<Json<Value>> {
    taught(&state, &a, &id).await?;
    state.store.delete_class(&id).await?;
    Ok(Json(json!({"ok": true})))
}

#[derive(Debug, Deserialize)]
pub struct NewStudents {
    pub count: i64,
}

/// `POST /api/class/{id}/students` `{"count"}` (the teacher, 1 to [`MAX_NEW_STUDENTS`]): new accounts in the class,
/// with their passwords (shown this once, for the login cards).
pub async fn add_students(
    State(state): State<AppState>,
    a: Auth,
    Path(id): Path<String>,
    Json(n): Json<NewStudents>,
) -> ApiResult<Response> {
    let class = taught(&state, &a, &id).await?;
    let count = u32::try_from(n.count).ok().filter(|c| (1..=MAX_NEW_STUDENTS).contains(c)).ok_or_else(|| {
        ApiError::bad_request(
            "bad_count",
            format!("学生人数（count）须为 1 到 {MAX_NEW_STUDENTS}"),
            format!("count: between 1 and {MAX_NEW_STUDENTS} students at a time"),
        )
    })?;
    let made = create_students(&state.store, &class, count).await?;
    let students: Vec<Value> = made.into_iter().map(|(u, p)| json!({"username": u, "password": p})).collect();
    Ok(no_store((StatusCode::CREATED, Json(json!({ "students": students })))))
}

#[derive(Debug, Deserialize)]
pub struct JoinCode {
    pub code: String,
}

/// `POST /api/class/join` `{"code"}`: a registered account joins the class with that code.
pub async fn join(State(state): State<AppState>, a: Auth, Json(j): Json<JoinCode>) -> ApiResult<Json<Value>> {
    registered(&a)?;
    let bad = || {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "bad_join_code",
            "没有这个加入码（code）的班级，请检查后再试",
            "code: no class has this join code; check it and try again",
        )
    };
    let code = normal_join_code(&j.code).ok_or_else(bad)?;
    let class = state.store.class_by_join_code(&code).await?.ok_or_else(bad)?;
    if class.owner_id == a.user.id {
        return Err(ApiError::bad_request(
            "own_class",
            "老师不能作为学生加入自己的班级",
            "a teacher cannot join their own class as a student",
        ));
    }
    state.store.add_class_student(&class.id, &a.user.id, now_ms()).await?;
    Ok(Json(json!({"id": class.id, "name": class.name})))
}

/// `POST /api/class/{id}/join-code` (the teacher): a new join code (the old one stops working).
pub async fn renew_join_code(State(state): State<AppState>, a: Auth, Path(id): Path<String>) -> ApiResult<Json<Value>> {
    taught(&state, &a, &id).await?;
    for _ in 0..20 {
        let code = new_join_code();
        if state.store.set_class_join_code(&id, Some(&code)).await? {
            return Ok(Json(json!({ "join_code": code })));
        }
    }
    Err(ApiError::internal("join code", "no free join code found"))
}

/// `DELETE /api/class/{id}/join-code` (the teacher): nobody can join by code any more.
pub async fn close_join_code(State(state): State<AppState>, a: Auth, Path(id): Path<String>) -> ApiResult<Json<Value>> {
    taught(&state, &a, &id).await?;
    state.store.set_class_join_code(&id, None).await?;
    Ok(Json(json!({ "join_code": null })))
}

/// The class `id` taught by `a` and the user `username` who is a student of it (else 404).
async fn taught_student(
    state: &AppState,
    a: &Auth,
    id: &str,
    username: &str,
) -> Result<(ClassRow, guoxiang_store::User), ApiError> {
    let class = taught(state, a, id).await?;
    let no_student =
        || ApiError::not_found(&format!("班级里的学生 {username}"), &format!("student {username} of the class"));
    if username.is_empty() || username.len() > 100 {
        return Err(no_student());
    }
    let user_id = guoxiang_store::user_id_of(&auth::normalize_name(username));
    let user = state.store.user(&user_id).await?.ok_or_else(no_student)?;
    if !state.store.is_class_student(id, &user.id).await? {
        return Err(no_student());
    }
    Ok((class, user))
}

/// `DELETE /api/class/{id}/students/{username}` (the teacher): out of the class; the account stays.
pub async fn remove_student(
    State(state): State<AppState>,
    a: Auth,
    Path((id, username)): Path<(String, String)>,
) -> ApiResult<Json<Value>> {
    let (_, user) = taught_student(&state, &a, &id, &username).await?;
    state.store.remove_class_student(&id, &user.id).await?;
    Ok(Json(json!({"ok": true})))
}

/// `POST /api/class/{id}/students/{username}/password` (the teacher of a class the student is in): a new generated
/// password; every session and token of the student ends, and the student must choose a new password at the next
/// login.
pub async fn reset_password(
    State(state): State<AppState>,
    a: Auth,
    Path((id, username)): Path<(String, String)>,
) -> ApiResult<Response> {
    let (_, user) = taught_student(&state, &a, &id, &username).await?;
    let password = new_student_password(&user.name);
    let p = password.clone();
    let hash = tokio::task::spawn_blocking(move || auth::hash_password(&p))
        .await
        .map_err(|e| ApiError::internal("argon2 task", e))??;
    state.store.set_password(&user.id, &hash).await?;
    state.store.set_password_reset(&user.id, &a.user.id, now_ms()).await?;
    state.store.delete_user_tokens(&user.id).await?;
    for session in state.store.end_user_sessions(&user.id, None).await? {
        let event = guoxiang_domain::hub::UserEvent::SessionEnded { session };
        state.live.notifier().notify(&user.id, event);
    }
    Ok(no_store(Json(json!({"username": user.name, "password": password}))))
}

/// The routes a user whose password was reset may still use: their account, choosing the new password, signing
/// in and out. Everything else answers [`password_change_required`].
pub const ALLOWED_BEFORE_NEW_PASSWORD: &[(&str, &str)] = &[
    ("GET", "/api/account"),
    ("GET", "/api/me"),
    ("POST", "/api/account/password"),
    ("POST", "/api/logout"),
    ("POST", "/api/logout/all"),
    ("POST", "/api/login"),
    ("POST", "/api/register"),
    ("POST", "/api/guest"),
];

/// The refusal while a reset password waits to be replaced.
pub fn password_change_required() -> ApiError {
    ApiError::forbidden(
        "password_change_required",
        "老师重置了你的密码，请先设置一个新密码",
        "your teacher reset your password: choose a new one first",
    )
}

/// Refuses `method path` for a user whose password was reset, except the routes of
/// [`ALLOWED_BEFORE_NEW_PASSWORD`].
pub async fn check_password_reset(state: &AppState, a: &Auth, method: &Method, path: &str) -> Result<(), ApiError> {
    let allowed = ALLOWED_BEFORE_NEW_PASSWORD
        .iter()
        .any(|(m, p)| *p == path && (*m == method.as_str() || (*m == "GET" && method == Method::HEAD)));
    if allowed || a.user.is_guest {
        return Ok(());
    }
    if state.store.password_reset_pending(&a.user.id).await? {
        return Err(password_change_required());
    }
    Ok(())
}

/// Refuses the quick-pairing pools (which pair strangers) to a protected student whose classes do not allow
/// challenges: 403 `student_protected`.
pub async fn check_pool(state: &AppState, user_id: &str) -> Result<(), ApiError> {
    if state.store.open_to_strangers(user_id).await? {
        return Ok(());
    }
    Err(ApiError::forbidden(
        "student_protected",
        "这是老师为学生创建的账号，不能和陌生人快速配对；可以向老师或同班同学发起挑战",
        "this is a student's account created by a teacher: it is not paired with strangers; challenge your teacher or \
         a classmate instead",
    ))
}

/// Refuses a game between `a` and `b` when one is a protected student ([`Store::may_challenge`]) the other may not
/// play: 403 `student_protected`.
pub async fn check_pairing(state: &AppState, a: &str, b: &str) -> Result<(), ApiError> {
    if state.store.may_challenge(a, b).await? && state.store.may_challenge(b, a).await? {
        return Ok(());
    }
    Err(ApiError::forbidden(
        "student_protected",
        "这是老师为学生创建的账号，只有老师和同班同学可以和他对局",
        "this is a student's account created by a teacher: only their teacher and classmates can play them",
    ))
}
