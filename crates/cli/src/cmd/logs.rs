//! The server's log lines (`guoxiang serve --log-format`): text for a person at a terminal, or one JSON object per
//! line for a log collector (journald, Loki, Elasticsearch…), each with the time, the level, the module, the node's
//! name in a cluster, the message and the event's fields — so the lines of every node can be merged and searched.

use std::fmt;

use tracing::field::{Field, Visit};
use tracing::{Event, Subscriber};
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::time::{FormatTime, SystemTime};
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields};
use tracing_subscriber::registry::LookupSpan;

/// How log lines are written.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LogFormat {
    /// One line of text per event.
    #[default]
    Text,
    /// One JSON object per line: `ts` (RFC 3339, UTC), `level`, `target`, `node` (in a cluster), `message` and the
    /// event's other fields.
    Json,
}

/// Installs the global logger: `RUST_LOG` filters (default `info`), lines go to stderr.
pub fn init(format: LogFormat, node: Option<String>) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    match format {
        LogFormat::Text => builder.init(),
        LogFormat::Json => builder.event_format(JsonLines { node }).init(),
    }
}

/// The JSON line format.
pub struct JsonLines {
    pub node: Option<String>,
}

impl<S, N> FormatEvent<S, N> for JsonLines
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(&self, ctx: &FmtContext<'_, S, N>, mut writer: Writer<'_>, event: &Event<'_>) -> fmt::Result {
        writeln!(writer, "{}", json_line(self.node.as_deref(), event, ctx.event_scope().map(|s| s.from_root())))
    }
}

/// An event as one JSON object (without the line's end). `spans`: the names of the spans it happened in, outermost
/// first.
fn json_line<'a, R: LookupSpan<'a>>(
    node: Option<&str>,
    event: &Event<'_>,
    spans: Option<tracing_subscriber::registry::ScopeFromRoot<'a, R>>,
) -> serde_json::Value {
    let meta = event.metadata();
    let mut ts = String::new();
    if SystemTime.format_time(&mut Writer::new(&mut ts)).is_err() {
        ts.clear();
    }
    let mut line = serde_json::Map::new();
    line.insert("ts".into(), ts.into());
    line.insert("level".into(), meta.level().as_str().into());
    line.insert("target".into(), meta.target().into());
    if let Some(node) = node {
        line.insert("node".into(), node.into());
    }
    let mut fields = Fields(serde_json::Map::new());
    event.record(&mut fields);
    // The message first among the fields, then the others in the order they were given.
    if let Some(m) = fields.0.remove("message") {
        line.insert("message".into(), m);
    }
    for (k, v) in fields.0 {
        // A field never hides the line's own keys.
        let k = if line.contains_key(&k) { format!("field.{k}") } else { k };
        line.insert(k, v);
    }
    if let Some(spans) = spans {
        let names: Vec<serde_json::Value> = spans.map(|s| s.name().into()).collect();
        if !names.is_empty() {
            line.insert("spans".into(), names.into());
        }
    }
    serde_json::Value::Object(line)
}

/// An event's fields as JSON values: numbers and booleans as such, everything else as its text.
struct Fields(serde_json::Map<String, serde_json::Value>);

impl Visit for Fields {
    fn record_f64(&mut self, field: &Field, value: f64) {
        let v = serde_json::Number::from_f64(value).map_or_else(|| value.to_string().into(), Into::into);
        self.0.insert(field.name().into(), v);
    }
    fn record_i64(&mut self, field: &Field, value: i64) {
        self.0.insert(field.name().into(), value.into());
    }
    fn record_u64(&mut self, field: &Field, value: u64) {
        self.0.insert(field.name().into(), value.into());
    }
    fn record_bool(&mut self, field: &Field, value: bool) {
        self.0.insert(field.name().into(), value.into());
    }
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().into(), value.into());
    }
    fn record_error(&mut self, field: &Field, value: &(dyn std::error::Error + 'static)) {
        self.0.insert(field.name().into(), value.to_string().into());
    }
    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.0.insert(field.name().into(), format!("{value:?}").into());
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::sync::{Arc, Mutex};

    use super::*;

    /// A writer into a shared buffer.
    #[derive(Clone, Default)]
    struct Buf(Arc<Mutex<Vec<u8>>>);

    impl Write for Buf {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn each_event_is_one_json_line_with_the_node_and_the_fields() {
        let buf = Buf::default();
        let out = buf.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(move || out.clone())
            .event_format(JsonLines { node: Some("node-a".into()) })
            .finish();
        tracing::subscriber::with_default(subscriber, || {
            let span = tracing::info_span!("takeover", game = "g1");
            let entered = span.enter();
            tracing::warn!(epoch = 3_i64, moves = 12_u64, ok = true, "game {}: taken over", "g1");
            drop(entered);
            tracing::info!(message = "a \"quoted\"\nline", message_count = 1.5);
        });
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{text}");
        let first: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
        assert_eq!(first["level"], "WARN");
        assert_eq!(first["node"], "node-a");
        assert_eq!(first["message"], "game g1: taken over");
        assert_eq!(
            (first["epoch"].as_i64(), first["moves"].as_u64(), first["ok"].as_bool()),
            (Some(3), Some(12), Some(true))
        );
        assert_eq!(first["spans"], serde_json::json!(["takeover"]));
        assert!(first["target"].as_str().unwrap().contains("logs"), "{first}");
        // RFC 3339 in UTC: 2026-12-04T21:30:00.123456Z.
        let ts = first["ts"].as_str().unwrap();
        assert!(ts.len() >= 20 && ts.as_bytes()[4] == b'-' && ts.as_bytes()[10] == b'T' && ts.ends_with('Z'), "{ts}");
        // The message's quotes and line break stay inside one line of JSON.
        let second: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
        assert_eq!(second["message"], "a \"quoted\"\nline");
        assert_eq!(second["message_count"], 1.5);
        assert!(second.get("spans").is_none(), "{second}");
    }

    #[test]
    fn outside_a_cluster_there_is_no_node() {
        let buf = Buf::default();
        let out = buf.clone();
        let subscriber =
            tracing_subscriber::fmt().with_writer(move || out.clone()).event_format(JsonLines { node: None }).finish();
        tracing::subscriber::with_default(subscriber, || tracing::error!(level = "mine", "x"));
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        let v: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
        assert!(v.get("node").is_none(), "{v}");
        // A field named like one of the line's keys does not replace it.
        assert_eq!((v["level"].as_str(), v["field.level"].as_str()), (Some("ERROR"), Some("mine")));
    }
}
