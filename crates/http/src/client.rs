// SPDX-License-Identifier: GPL-3.0-or-later
//! Who a request came from: the one place that names the client's address, for every per-address limit (logins,
//! signups, guests, a visitor's puzzles) and for the access log.
//!
//! The TCP peer is the client — unless it is a proxy the host trusts (`guoxiang serve --trusted-proxy CIDR`,
//! [`crate::Config::trusted_proxies`]). Then the client is read from the proxy's `X-Forwarded-For`, or when that is
//! missing from RFC 7239's `Forwarded: for=`: the right-most address in it that is not itself a trusted proxy. Each
//! proxy appends the address it was reached from, so the entries on the right are the trusted proxies' own and
//! whatever a client wrote itself stays on the left, where it is not read. From any other peer both headers are
//! ignored.
//!
//! The connection cap of the accept loop ([`crate::listen`]) counts connections when they are accepted, before any
//! header has arrived: there a trusted proxy's connections count in the total only (they carry many clients), and
//! limiting connections per client is the proxy's work.

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRef, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{Extensions, HeaderMap};
pub use ipnet::IpNet;

use crate::AppState;
use crate::api_error::ApiError;

/// `--trusted-proxy`'s value: a CIDR range (`10.0.0.0/8`, `fd00::/8`) or one address (`127.0.0.1`).
pub fn parse_trusted_proxy(s: &str) -> Result<IpNet, String> {
    let s = s.trim();
    s.parse::<IpNet>()
        .or_else(|_| s.parse::<IpAddr>().map(IpNet::from))
        .map_err(|_| format!("{s:?} is not an address or a CIDR range (like 10.0.0.0/8 or 127.0.0.1)"))
}

fn is_trusted(ip: IpAddr, trusted: &[IpNet]) -> bool {
    trusted.iter().any(|n| n.contains(&ip))
}

/// The client of a request that reached us from `peer` with `headers`, trusting the proxies in `trusted`.
pub fn client_ip(peer: IpAddr, headers: &HeaderMap, trusted: &[IpNet]) -> IpAddr {
    // An IPv4 peer of a dual-stack listener is `::ffff:a.b.c.d`: the ranges are written as IPv4.
    let peer = peer.to_canonical();
    if !is_trusted(peer, trusted) {
        return peer;
    }
    let mut client = peer;
    for hop in forwarded_for(headers).into_iter().rev() {
        // An entry that names no address (garbage, `unknown`, an obfuscated name): nothing left of it can be
        // known, and the last trusted hop is the best we know.
        let Some(ip) = hop else { break };
        client = ip;
        if !is_trusted(ip, trusted) {
            break;
        }
    }
    client
}

/// The addresses the proxies wrote, left (first) to right (last): `X-Forwarded-For`, all its fields in order, or
/// else the `for=` of each element of `Forwarded`. `None` for an entry that names no address.
fn forwarded_for(headers: &HeaderMap) -> Vec<Option<IpAddr>> {
    let xff = headers.get_all("x-forwarded-for");
    if xff.iter().next().is_some() {
        return xff
            .iter()
            .flat_map(|v| match v.to_str() {
                Ok(v) => v.split(',').map(node).collect(),
                Err(_) => vec![None],
            })
            .collect();
    }
    headers
        .get_all("forwarded")
        .iter()
        .flat_map(|v| match v.to_str() {
            Ok(v) => split_outside_quotes(v, ',').into_iter().map(for_of_element).collect(),
            Err(_) => vec![None],
        })
        .collect()
}

/// The `for=` node of one element of `Forwarded` (`for=192.0.2.60;proto=http;by=203.0.113.43`).
fn for_of_element(element: &str) -> Option<IpAddr> {
    split_outside_quotes(element, ';').into_iter().find_map(|pair| {
        let (k, v) = pair.split_once('=')?;
        k.trim().eq_ignore_ascii_case("for").then(|| node(v.trim().trim_matches('"')))?
    })
}

/// `s` split at `sep`, except inside a quoted string.
fn split_outside_quotes(s: &str, sep: char) -> Vec<&str> {
    let (mut parts, mut start, mut quoted) = (Vec::new(), 0, false);
    for (i, c) in s.char_indices() {
        if c == '"' {
            quoted = !quoted;
        } else if c == sep && !quoted {
            parts.push(&s[start..i]);
            start = i + c.len_utf8();
        }
    }
    parts.push(&s[start..]);
    parts
}

/// One address as proxies write it: `192.0.2.1`, `192.0.2.1:4711`, `2001:db8::1`, `[2001:db8::1]:4711`.
fn node(s: &str) -> Option<IpAddr> {
    let s = s.trim();
    let ip = s
        .parse::<IpAddr>()
        .ok()
        .or_else(|| s.parse::<SocketAddr>().ok().map(|a| a.ip()))
        .or_else(|| s.strip_prefix('[')?.strip_suffix(']')?.parse().ok())?;
    Some(ip.to_canonical())
}

/// The client of a request as [`client_ip`] names it, from the peer the accept loop put in its extensions
/// (`ConnectInfo`); `None` without one.
pub fn of_request(headers: &HeaderMap, extensions: &Extensions, trusted: &[IpNet]) -> Option<IpAddr> {
    let ConnectInfo(peer) = extensions.get::<ConnectInfo<SocketAddr>>()?;
    Some(client_ip(peer.ip(), headers, trusted))
}

/// Extractor: the client's address ([`client_ip`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientIp(pub IpAddr);

impl<S> FromRequestParts<S> for ClientIp
where
    AppState: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<ClientIp, ApiError> {
        let state = AppState::from_ref(state);
        of_request(&parts.headers, &parts.extensions, &state.config.trusted_proxies)
            .map(ClientIp)
            .ok_or_else(|| ApiError::internal("client address", "the connection's address is missing"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, v.parse().unwrap());
        }
        h
    }

    fn nets(list: &[&str]) -> Vec<IpNet> {
        list.iter().map(|s| parse_trusted_proxy(s).unwrap()).collect()
    }

    #[test]
    fn an_untrusted_peer_is_the_client_whatever_it_writes() {
        let h = headers(&[("x-forwarded-for", "203.0.113.5"), ("forwarded", "for=203.0.113.6")]);
        assert_eq!(client_ip(ip("198.51.100.1"), &h, &[]), ip("198.51.100.1"));
        assert_eq!(client_ip(ip("198.51.100.1"), &h, &nets(&["127.0.0.0/8"])), ip("198.51.100.1"));
    }

    #[test]
    fn behind_trusted_proxies_the_right_most_untrusted_address_is_the_client() {
        let t = nets(&["127.0.0.1", "10.0.0.0/8"]);
        let peer = ip("127.0.0.1");
        let at = |xff: &str| client_ip(peer, &headers(&[("x-forwarded-for", xff)]), &t);
        assert_eq!(at("203.0.113.5"), ip("203.0.113.5"));
        // What the client wrote itself is on the left and never read.
        assert_eq!(at("1.2.3.4, 203.0.113.5"), ip("203.0.113.5"));
        assert_eq!(at("1.2.3.4,203.0.113.5, 10.1.2.3"), ip("203.0.113.5"));
        assert_eq!(at("garbage, 203.0.113.5"), ip("203.0.113.5"));
        // Ports and brackets, as some proxies write them.
        assert_eq!(at("203.0.113.5:4711"), ip("203.0.113.5"));
        assert_eq!(at("[2001:db8::7]:4711"), ip("2001:db8::7"));
        assert_eq!(at("2001:db8::7"), ip("2001:db8::7"));
        // Every hop trusted: the left-most is the best known; an unreadable one stops the walk.
        assert_eq!(at("10.0.0.9, 10.0.0.8"), ip("10.0.0.9"));
        assert_eq!(at("garbage, 10.0.0.8"), ip("10.0.0.8"));
        assert_eq!(at("garbage"), peer);
        assert_eq!(at(""), peer);
        // Several header fields are one list, in order.
        let h = headers(&[("x-forwarded-for", "1.2.3.4"), ("x-forwarded-for", "203.0.113.5")]);
        assert_eq!(client_ip(peer, &h, &t), ip("203.0.113.5"));
        // An IPv4 peer as a dual-stack listener sees it.
        let h = headers(&[("x-forwarded-for", "203.0.113.5")]);
        assert_eq!(client_ip(ip("::ffff:127.0.0.1"), &h, &t), ip("203.0.113.5"));
        // No header: the proxy itself.
        assert_eq!(client_ip(peer, &HeaderMap::new(), &t), peer);
    }

    #[test]
    fn forwarded_is_read_when_there_is_no_x_forwarded_for() {
        let t = nets(&["127.0.0.0/8"]);
        let peer = ip("127.0.0.1");
        let at = |f: &str| client_ip(peer, &headers(&[("forwarded", f)]), &t);
        assert_eq!(at("for=203.0.113.5"), ip("203.0.113.5"));
        assert_eq!(at("For=\"203.0.113.5:4711\";proto=https"), ip("203.0.113.5"));
        assert_eq!(at("for=\"[2001:db8:cafe::17]:4711\""), ip("2001:db8:cafe::17"));
        assert_eq!(at("for=1.2.3.4, for=203.0.113.5;by=127.0.0.1, for=127.0.0.2"), ip("203.0.113.5"));
        assert_eq!(at("proto=https;by=\"a,b\";for=203.0.113.5"), ip("203.0.113.5"));
        assert_eq!(at("for=unknown"), peer);
        assert_eq!(at("for=_hidden, for=127.0.0.3"), ip("127.0.0.3"));
        // X-Forwarded-For wins when both are sent.
        let h = headers(&[("forwarded", "for=203.0.113.6"), ("x-forwarded-for", "203.0.113.5")]);
        assert_eq!(client_ip(peer, &h, &t), ip("203.0.113.5"));
    }

    #[test]
    fn trusted_proxies_are_ranges_or_single_addresses() {
        assert_eq!(parse_trusted_proxy("127.0.0.1").unwrap().to_string(), "127.0.0.1/32");
        assert_eq!(parse_trusted_proxy(" 10.0.0.0/8 ").unwrap().to_string(), "10.0.0.0/8");
        assert_eq!(parse_trusted_proxy("fd00::/8").unwrap().to_string(), "fd00::/8");
        for bad in ["", "10.0.0.0/33", "localhost", "10.0.0/8", "1.2.3.4/"] {
            let e = parse_trusted_proxy(bad).unwrap_err();
            assert!(e.contains("CIDR"), "{bad}: {e}");
        }
    }
}
