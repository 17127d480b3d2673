//! Present mode of studies (研究, issue 42) on the WebSocket: the owner presents positions (`study_present`), every
//! connection that follows the study (`study_follow`) gets them (`study_position`), and the owner may let the
//! followers go (`study_release` → `study_released`).
//!
//! Fan-out is the hub's: a following connection registers under the study's hub key
//! ([`guoxiang_domain::events::study_followers`]) as a user's connection registers under the user, so a position is
//! delivered on this node and, in a cluster, relayed to the others like any user's notification. The owner's last
//! presented position is kept on the node it was presented on, for those who start following later.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use guoxiang_domain::events::study_followers;
use guoxiang_learn::Study;
use guoxiang_protocol::{ServerMessage, StudyShape};
use guoxiang_store::StudyRow;

use super::{Conn, UserEvent};
use crate::api_error::ApiError;

/// The last position each study's owner presented on this node (removed when the followers are let go).
static LAST: LazyLock<Mutex<HashMap<String, Arc<str>>>> = LazyLock::new(Mutex::default);

fn last() -> std::sync::MutexGuard<'static, HashMap<String, Arc<str>>> {
    LAST.lock().unwrap_or_else(|e| e.into_inner())
}

fn not_found() -> ApiError {
    ApiError::not_found("这个研究", "study")
}

fn not_owner() -> ApiError {
    ApiError::forbidden("not_study_owner", "只有研究的作者可以演示它", "only the study's owner may present it")
}

impl Conn {
    fn user_id(&self) -> Option<&str> {
        self.auth.as_ref().map(|a| a.user.id.as_str())
    }

    /// The study, if this connection's user may read it (`not_found` otherwise).
    async fn readable_study(&self, study: &str) -> Result<StudyRow, ApiError> {
        let row = self.state.store.study(study).await?.ok_or_else(not_found)?;
        if self.state.store.may_read_study(&row, self.user_id()).await? { Ok(row) } else { Err(not_found()) }
    }

    /// `study_follow`: registers under the study's hub key (replacing an earlier study), then sends the last
    /// position presented on this node, if any.
    pub(super) async fn study_follow(&mut self, id: u32, study: String) -> Result<(), ApiError> {
        self.readable_study(&study).await?;
        self.study_stop();
        let (guard, mut rx) = self.state.hub.register(&study_followers(&study));
        let out = self.out.clone();
        let task = tokio::spawn(async move {
            let _guard = guard;
            while let Some(ev) = rx.recv().await {
                let UserEvent::Study(m) = ev else { continue };
                if out.send(m.to_json().into()).await.is_err() {
                    break;
                }
            }
        });
        self.study = Some((study.clone(), task));
        self.ack(id);
        let known = last().get(&study).cloned();
        if let Some(frame) = known {
            self.send(frame);
        }
        Ok(())
    }

    /// Stops following, if the connection follows a study.
    pub(super) fn study_stop(&mut self) {
        if let Some((_, task)) = self.study.take() {
            task.abort();
        }
    }

    /// `study_unfollow`.
    pub(super) fn study_unfollow(&mut self, id: u32, study: &str) {
        if self.study.as_ref().is_some_and(|(s, _)| s == study) {
            self.study_stop();
        }
        self.ack(id);
    }

    /// `study_present`: the owner's position, sent to every follower.
    pub(super) async fn study_present(
        &mut self,
        id: u32,
        study: String,
        chapter: u32,
        path: Vec<u32>,
    ) -> Result<(), ApiError> {
        let row = self.readable_study(&study).await?;
        if self.user_id() != Some(row.owner_id.as_str()) {
            return Err(not_owner());
        }
        let body: Study =
            serde_json::from_str(&row.body).map_err(|e| ApiError::internal(&format!("study {study} body"), e))?;
        let at: Vec<usize> = path.iter().map(|&n| n as usize).collect();
        let view = body.chapters.get(chapter as usize).and_then(|c| c.view(&at));
        let Some((fen, shapes)) = view else {
            return Err(ApiError::bad_request(
                "bad_request",
                "chapter/path：研究里没有这个位置",
                "chapter/path: the study has no such position",
            ));
        };
        let shapes = shapes
            .into_iter()
            .map(|s| StudyShape {
                brush: serde_json::to_value(s.brush)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default(),
                orig: s.orig.to_string(),
                dest: s.dest.map(|d| d.to_string()),
            })
            .collect();
        let msg = ServerMessage::StudyPosition { study: study.clone(), chapter, path, fen, shapes };
        last().insert(study.clone(), msg.to_json().into());
        self.state.hub.send(&study_followers(&study), UserEvent::Study(Box::new(msg)));
        self.ack(id);
        Ok(())
    }

    /// `study_release`: from the owner, the followers are let go; from anyone else, they stop following.
    pub(super) async fn study_release(&mut self, id: u32, study: String) -> Result<(), ApiError> {
        let row = self.readable_study(&study).await?;
        if self.user_id() != Some(row.owner_id.as_str()) {
            self.study_unfollow(id, &study);
            return Ok(());
        }
        last().remove(&study);
        let msg = ServerMessage::StudyReleased { study: study.clone() };
        self.state.hub.send(&study_followers(&study), UserEvent::Study(Box::new(msg)));
        self.ack(id);
        Ok(())
    }
}
