//! [`PuzzleError`]: why the puzzle service refused or failed a request, as the service's own type — the HTTP
//! handlers (`http::puzzle`) turn it into their error with `From`.

use guoxiang_store::StoreError;

/// Why the puzzle service refused or failed a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PuzzleError {
    /// A part of the request that is not right (`field` names it; the judge's own complaints about a try too).
    Invalid { field: String, zh: String, en: String },
    /// No puzzle matches what was asked.
    NoPuzzle,
    /// No puzzle has this id.
    NotFound { id: String },
    /// Too many tries judged for this session or address.
    TooManyTries,
    /// The database failed.
    Store(StoreError),
    /// Something of ours failed (a stored puzzle that does not read, a judge's task that did not finish).
    Internal { context: &'static str, detail: String },
}

impl PuzzleError {
    /// A part of the request that is not right, said in both languages.
    pub fn invalid(field: &str, zh: impl std::fmt::Display, en: impl std::fmt::Display) -> PuzzleError {
        PuzzleError::Invalid { field: field.to_owned(), zh: zh.to_string(), en: en.to_string() }
    }

    pub(crate) fn internal(context: &'static str, detail: impl std::fmt::Display) -> PuzzleError {
        PuzzleError::Internal { context, detail: detail.to_string() }
    }
}

impl From<StoreError> for PuzzleError {
    fn from(e: StoreError) -> PuzzleError {
        PuzzleError::Store(e)
    }
}

impl std::fmt::Display for PuzzleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PuzzleError::Invalid { field, en, .. } => write!(f, "{field}: {en}"),
            PuzzleError::NoPuzzle => f.write_str("no puzzle matches"),
            PuzzleError::NotFound { id } => write!(f, "puzzle {id} not found"),
            PuzzleError::TooManyTries => f.write_str("too many tries"),
            PuzzleError::Store(e) => write!(f, "database: {e}"),
            PuzzleError::Internal { context, detail } => write!(f, "{context}: {detail}"),
        }
    }
}

impl std::error::Error for PuzzleError {}
