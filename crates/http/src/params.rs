// SPDX-License-Identifier: GPL-3.0-or-later
//! Request parameters as the Lichess-compatible API and the site's own API both take them: booleans in Lichess's
//! spellings and comma-separated lists, each bad value a 400 naming its parameter.

use crate::api_error::ApiError;

/// A boolean parameter `k`: `true`/`1`/`yes`/`on` or `false`/`0`/`no`/`off`, in any case (berserk sends
/// Python's `True`); absent or empty → `None`; anything else is a 400 naming the parameter.
pub fn parse_bool(k: &str, v: Option<&str>) -> Result<Option<bool>, ApiError> {
    match v.map(str::to_ascii_lowercase).as_deref() {
        None | Some("") => Ok(None),
        Some("true" | "1" | "yes" | "on") => Ok(Some(true)),
        Some("false" | "0" | "no" | "off") => Ok(Some(false)),
        Some(_) => Err(bad_param(k, v.unwrap_or_default())),
    }
}

/// Up to `max` comma-separated names or tokens of a request body or parameter (blank ones skipped); more is a 400
/// with `code`, saying how many came.
pub fn comma_list<'a>(text: &'a str, max: usize, code: &'static str) -> Result<Vec<&'a str>, ApiError> {
    let items: Vec<&str> = text.split(',').map(str::trim).filter(|t| !t.is_empty()).collect();
    if items.len() > max {
        return Err(ApiError::bad_request(
            code,
            format!("一次最多 {max} 个（收到 {} 个）", items.len()),
            format!("at most {max} at a time (got {})", items.len()),
        ));
    }
    Ok(items)
}

/// The 400 of a parameter `k` whose value `v` does not read.
pub fn bad_param(k: &str, v: &str) -> ApiError {
    ApiError::bad_request("bad_request", format!("参数 {k} 的值 {v:?} 无效"), format!("invalid value {v:?} for {k}"))
}
