//! What can go wrong when adding or probing tables.

/// Why a probe (or adding a directory) failed. Every variant says what was wrong and, for a bad file, where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProbeError {
    /// More than seven pieces (kings included): no Syzygy table covers the position.
    #[error("too many pieces for the Syzygy tables (they cover at most 7, kings included)")]
    TooManyPieces,
    /// The position has castling rights; the tables only hold positions without them.
    #[error("the Syzygy tables hold no positions with castling rights")]
    Castling,
    /// A table the probe needs (the position's own, or one reached by a capture or a promotion) was not added.
    /// `name` is the file that is missing, e.g. `KQvKR.rtbw`.
    #[error("missing tablebase file {name}")]
    MissingTable { name: String },
    /// A table file is not a valid Syzygy file: wrong magic number, truncated, or an inconsistent header or
    /// compressed stream. `what` says what was found where (byte offsets in the file).
    #[error("corrupt tablebase file {file}: {what}")]
    Corrupt { file: String, what: String },
    /// A file or directory could not be read.
    #[error("cannot read {path}: {message}")]
    Io { path: String, message: String },
}

impl ProbeError {
    pub(crate) fn corrupt(file: &str, what: impl Into<String>) -> ProbeError {
        ProbeError::Corrupt { file: file.to_string(), what: what.into() }
    }

    pub(crate) fn io(path: &std::path::Path, e: &std::io::Error) -> ProbeError {
        ProbeError::Io { path: path.display().to_string(), message: e.to_string() }
    }
}
