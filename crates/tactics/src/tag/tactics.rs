//! The tactical motifs: double attacks, line pieces, material and the kinds of move.

use guoxiang_core::{Position, Role, Square, attacks};

use super::Line;
use super::board::{
    attacks_of, balance, best_capture_on, dest, en, has_mate_in_one, is_slider, passed, see_units, slides_between,
    value, value_at, zh,
};
use super::detect::{Facts, around, is_target, loses_piece, push};
use crate::Motif;
use crate::tag::Tag;

pub(crate) fn all(l: &Line, f: &Facts, out: &mut Vec<Tag>) {
    // A pin is used even in a line that only holds the balance.
    pin(l, out);
    relative_pin(l, out);
    if f.wins {
        fork(l, f.mate, f.gain, out);
        if !f.mate {
            skewer(l, out);
        }
        discovered(l, out);
        x_ray(l, out);
        material(l, f, out);
        deflection(l, out);
        attraction(l, out);
        capturing_defender(l, out);
        interference(l, out);
        clearance(l, out);
        intermezzo(l, out);
        trapped(l, out);
        line_opening(l, out);
        demolition(l, out);
        quiet(l, out);
        zugzwang(l, out);
    }
    hanging(l, out);
    king_walk(l, out);
    defensive(l, f, out);
}

/// Is ply `i` a capture, and of what value.
fn taken(l: &Line, i: usize) -> i32 {
    let (pos, m) = (l.before(i), l.moves[i]);
    if m.is_en_passant() {
        1
    } else if m.is_castle() {
        0
    } else {
        value_at(pos, m.to())
    }
}

fn forcing(l: &Line, i: usize) -> bool {
    let m = l.moves[i];
    l.after(i).is_check() || taken(l, i) > 0 || m.is_promotion()
}

/// A solver move after which the moved piece attacks two targets, safely (the reply does not take it with a piece
/// worth no more than itself), and a later solver move takes one.
fn fork(l: &Line, mate: bool, gain: i32, out: &mut Vec<Tag>) {
    for i in l.solver_plies() {
        if i + 2 >= l.moves.len() {
            break;
        }
        let (after, m) = (l.after(i), l.moves[i]);
        let to = dest(m);
        if after.role_at(to) == Some(Role::King) {
            continue;
        }
        let hit = attacks_of(after, to) & after.by_color(!l.pov);
        let targets: Vec<Square> = hit.filter(|&t| is_target(after, to, t)).collect();
        if targets.len() < 2 || (!after.is_check() && loses_piece(after, to)) {
            continue;
        }
        // Taken at once by a piece worth no more than itself, the forking piece was a trade or a sacrifice.
        let reply = l.moves[i + 1];
        if reply.to() == to && value_at(after, reply.from()) <= value_at(after, to) {
            continue;
        }
        // In a mating line the fork must be cashed in: the forking piece takes something next.
        let next = l.moves[i + 2];
        let cashed = if mate {
            next.from() == to && l.before(i + 2).color_at(next.to()) == Some(!l.pov)
        } else {
            // Some later solver move takes a target, or a target that stepped away.
            gain >= 2
                && (i + 2..l.moves.len()).step_by(2).any(|j| {
                    let t = l.moves[j].to();
                    taken(l, j) > 0
                        && see_units(l.before(j), l.moves[j]) >= 1
                        && (targets.contains(&t) || (targets.contains(&reply.from()) && reply.to() == t))
                })
        };
        if cashed {
            let (a, b) = (targets[0], targets[1]);
            push(
                out,
                Motif::Fork,
                format!("{}同时攻击{}和{}。", zh(after, to), zh(after, a), zh(after, b)),
                format!("{} attacks {} and {} at once.", en(after, to), en(after, a), en(after, b)),
            );
            return;
        }
    }
}

/// The enemy pieces pinned by a solver slider in `pos`: (pinned square, pinner, piece behind, absolute).
fn pins(pos: &Position, us: guoxiang_core::Color) -> Vec<(Square, Square, Square, bool)> {
    let mut found = Vec::new();
    let occ = pos.occupied();
    for s in pos.by_color(us) {
        let Some(r) = pos.role_at(s) else { continue };
        if !matches!(r, Role::Bishop | Role::Rook | Role::Queen) {
            continue;
        }
        for x in attacks::attacks(r, us, s, occ) & pos.by_color(!us) {
            let beyond = attacks::attacks(r, us, s, occ.without(x)) & !attacks::attacks(r, us, s, occ);
            let Some(v) = (beyond & pos.by_color(!us) & attacks::line(s, x)).first() else { continue };
            let (vx, vv) = (value_at(pos, x), value_at(pos, v));
            let absolute = pos.role_at(v) == Some(Role::King);
            if absolute || (vv > vx && vv > value(r).min(vv - 1) && (vv > value(r) || !pos.is_attacked(v, !us))) {
                found.push((x, s, v, absolute));
            }
        }
    }
    found
}

/// A pin to the king that the line uses: after a solver move the pinned piece is worth more than its pinner, is
/// attacked by a lesser solver piece, or was already pinned and is left with no defender; or it attacks the piece
/// the solver just moved (undefended, or worth more than it) but may not leave the pin line to take it.
fn pin(l: &Line, out: &mut Vec<Tag>) {
    for i in l.solver_plies() {
        let (pos, after, m) = (l.before(i), l.after(i), l.moves[i]);
        let to = dest(m);
        let before: Vec<(Square, Square, Square, bool)> = pins(pos, l.pov);
        // It guards the square just reached, but may not take there.
        let guard = before.iter().find(|&&(x, s, v, absolute)| {
            absolute
                && after.color_at(x) == Some(!l.pov)
                && attacks_of(after, x).contains(to)
                && !attacks::line(s, v).contains(to)
                && (!after.is_attacked(to, l.pov) || value_at(after, x) < value_at(after, to))
        });
        if let Some(&(x, s, v, _)) = guard {
            let sentence = (
                format!("{}牵制住{}，它不能离开去保护 {}。", zh(pos, s), zh(pos, x), to.name()),
                format!(
                    "{} pins {} to {}, so it cannot leave to cover {}.",
                    en(pos, s),
                    en(pos, x),
                    en(pos, v),
                    to.name()
                ),
            );
            push(out, Motif::AbsolutePin, sentence.0.clone(), sentence.1.clone());
            push(out, Motif::Pin, sentence.0, sentence.1);
            return;
        }
        // It is won: worth more than the pinner, hit by a lesser piece, or pinned already and left undefended.
        let won = pins(after, l.pov).into_iter().find(|&(x, s, _, absolute)| {
            let vx = value_at(after, x);
            let mut hitters = after.attackers_to(x, l.pov, after.occupied());
            let lesser = Iterator::any(&mut hitters, |a| a != s && value_at(after, a) < vx);
            absolute
                && (vx > value_at(after, s)
                    || lesser
                    || before.iter().any(|p| p.0 == x && p.1 == s) && vx >= 3 && !after.is_attacked(x, !l.pov))
        });
        if let Some((x, s, v, _)) = won {
            let sentence = (
                format!("{}把{}牵制在{}身前，{}走不开而丢失。", zh(after, s), zh(after, x), zh(after, v), zh(after, x)),
                format!("{} pins {} to {}, and the pinned piece is lost.", en(after, s), en(after, x), en(after, v)),
            );
            push(out, Motif::AbsolutePin, sentence.0.clone(), sentence.1.clone());
            push(out, Motif::Pin, sentence.0, sentence.1);
            return;
        }
    }
}

/// A pin to a queen or rook that the line uses: after a solver move an enemy piece stands between our slider and a
/// more valuable enemy queen or rook, and a later solver move takes the pinned piece or the piece behind it.
fn relative_pin(l: &Line, out: &mut Vec<Tag>) {
    for i in l.solver_plies() {
        let after = l.after(i);
        for (x, s, v, absolute) in pins(after, l.pov) {
            if absolute || !matches!(after.role_at(v), Some(Role::Queen | Role::Rook)) {
                continue;
            }
            let (rx, rv) = (after.role_at(x), after.role_at(v));
            let used = l.solver_plies().filter(|&j| j > i).any(|j| {
                let (t, at) = (dest(l.moves[j]), l.before(j));
                at.color_at(t) == Some(!l.pov) && ((t == x && at.role_at(t) == rx) || (t == v && at.role_at(t) == rv))
            });
            if used {
                let zh_text = format!("{}牵制住{}，它身后是{}。", zh(after, s), zh(after, x), zh(after, v));
                let en_text = format!("{} pins {} to {}.", en(after, s), en(after, x), en(after, v));
                push(out, Motif::RelativePin, zh_text.clone(), en_text.clone());
                push(out, Motif::Pin, zh_text, en_text);
                return;
            }
        }
    }
}

/// A slider attacks a valuable piece, it steps off the line and the slider takes the piece behind it.
fn skewer(l: &Line, out: &mut Vec<Tag>) {
    for j in l.solver_plies().skip(1) {
        let m = l.moves[j];
        let pos = l.before(j);
        let (s, x) = (m.from(), m.to());
        if !is_slider(pos, s) || pos.color_at(x) != Some(!l.pov) {
            continue;
        }
        let reply = l.moves[j - 1];
        let v = reply.from();
        let front = l.before(j - 1);
        let Some(vr) = front.role_at(v) else { continue };
        if !attacks::between(s, x).contains(v) || !(attacks::between(s, x) & front.occupied()).without(v).is_empty() {
            continue;
        }
        if !matches!(vr, Role::King | Role::Queen | Role::Rook) || value(vr) <= value_at(pos, x) && vr != Role::King {
            continue;
        }
        if attacks::line(s, x).contains(reply.to()) && reply.to() != s {
            continue;
        }
        // The skewering move is the solver's move before, onto the line.
        if j < 2 || dest(l.moves[j - 2]) != s || see_units(pos, m) < 1 {
            continue;
        }
        push(
            out,
            Motif::Skewer,
            format!("{}串击{}，它让开后吃掉后面的{}。", zh(front, s), zh(front, v), zh(pos, x)),
            format!("{} skewers {}; once it steps aside, {} falls.", en(front, s), en(front, v), en(pos, x)),
        );
        return;
    }
}

/// A solver move uncovers a slider's line onto an enemy piece or the king, and the line wins by it.
fn discovered(l: &Line, out: &mut Vec<Tag>) {
    let mut windmill = 0;
    for i in l.solver_plies() {
        let (pos, after, m) = (l.before(i), l.after(i), l.moves[i]);
        let f = m.from();
        for s in after.by_color(l.pov) {
            if s == dest(m) || !is_slider(after, s) {
                continue;
            }
            let before_att = attacks_of(pos, s);
            let now = attacks_of(after, s) & !before_att & after.by_color(!l.pov);
            for t in now {
                if !attacks::between(s, t).contains(f) {
                    continue;
                }
                let king = after.role_at(t) == Some(Role::King);
                let next = l.moves.get(i + 2).copied();
                let cashed = if king {
                    // A discovered check leaves the moved piece free to do anything; a double check is its own motif.
                    !after.checkers().more_than_one()
                } else {
                    (i + 2..l.moves.len()).step_by(2).any(|j| {
                        let n = l.moves[j];
                        n.to() == t && l.before(j).color_at(s) == after.color_at(s) && n.from() == s
                    })
                };
                if cashed {
                    if king && next.is_some_and(|n| n.from() == dest(m) && taken(l, i + 2) > 0) {
                        windmill += 1;
                    }
                    push(
                        out,
                        Motif::DiscoveredAttack,
                        format!("{}走开，露出{}对{}的攻击。", zh(pos, f), zh(after, s), zh(after, t)),
                        format!(
                            "{} moves away and uncovers an attack by {} on {}.",
                            en(pos, f),
                            en(after, s),
                            en(after, t)
                        ),
                    );
                    break;
                }
            }
        }
    }
    if windmill >= 2 {
        push(
            out,
            Motif::Windmill,
            format!("{}方连续闪将，每次都吃掉一个子（借力）。", l.pov.fold("白", "黑")),
            format!("{} gives discovered check after discovered check, taking material each time.", l.pov.name()),
        );
    }
}

/// A slider captures on a square just fought over, through the piece that stood in front of it there.
fn x_ray(l: &Line, out: &mut Vec<Tag>) {
    for j in l.solver_plies().skip(1) {
        let (m, pos) = (l.moves[j], l.before(j));
        let t = m.to();
        if !is_slider(pos, m.from()) || taken(l, j) == 0 || l.moves[j - 1].to() != t {
            continue;
        }
        let recapturer = l.moves[j - 1].from();
        let first = if j >= 2 { Some(l.moves[j - 2]) } else { None };
        let own_battery = first.is_some_and(|f| f.to() == t && attacks::between(m.from(), t).contains(f.from()));
        let through_enemy = attacks::between(m.from(), t).contains(recapturer);
        if (own_battery || through_enemy) && slides_between(pos.role_at(m.from()).unwrap_or(Role::Pawn), m.from(), t) {
            push(
                out,
                Motif::XRay,
                format!(
                    "{}隔着 {} 控制 {}，最后在那里吃子。",
                    zh(pos, m.from()),
                    if through_enemy { recapturer.name() } else { first.map_or(t, |f| f.from()).name() },
                    t.name()
                ),
                format!("{} x-rays {} through another piece and takes there at the end.", en(pos, m.from()), t.name()),
            );
            return;
        }
    }
}

/// Sacrifice, sacrifice and regain, exchange.
fn material(l: &Line, f: &Facts, out: &mut Vec<Tag>) {
    let start = balance(&l.boards[0], l.pov);
    let mut low = 0;
    let mut low_at = None;
    for i in l.solver_plies() {
        if i + 1 >= l.moves.len() {
            break;
        }
        let b = balance(l.after(i + 1), l.pov) - start;
        if b < low {
            low = b;
            low_at = Some(i);
        }
        let m = l.moves[i];
        let reply = l.moves[i + 1];
        let v = taken(l, i);
        if v > 0 && reply.to() == m.to() && value_at(l.before(i + 1), m.to()) == v && v >= 3 {
            let pos = l.before(i);
            push(
                out,
                Motif::Exchange,
                format!("{}在 {} 换掉{}，子力相等。", zh(pos, m.from()), m.to().name(), zh(pos, m.to())),
                format!("{} trades itself for {} on {}.", en(pos, m.from()), en(pos, m.to()), m.to().name()),
            );
        }
    }
    if low <= -2
        && let Some(i) = low_at
    {
        let (pos, m) = (l.before(i), l.moves[i]);
        let s = (zh(pos, m.from()), en(pos, m.from()));
        push(
            out,
            Motif::Sacrifice,
            format!("{}走到 {}，主动送出子力。", s.0, m.to().name()),
            format!("{} goes to {} and gives up material.", s.1, m.to().name()),
        );
        if f.gain >= 0 && !f.mate {
            push(
                out,
                Motif::SacrificeRegain,
                format!("{}弃子之后，几步内把子力得回来。", s.0),
                format!("After the sacrifice by {} the material comes back a few moves later.", s.1),
            );
        }
    }
}

/// A check drives an enemy piece (the king too) off a square from which it guarded another, and the solver's
/// next move captures on the square it no longer guards — with another piece than the checker, or with the checker
/// when what it takes is less than a queen (a check that also hits the queen is a fork); a checking capture that
/// is taken back by the guard, having taken as much as it was worth, is a trade and not counted.
fn deflection(l: &Line, out: &mut Vec<Tag>) {
    for j in l.solver_plies().skip(1) {
        let (reply, m) = (l.moves[j - 1], l.moves[j]);
        let (pos, now) = (l.before(j - 1), l.before(j));
        let (from, t) = (reply.from(), m.to());
        if !pos.is_check() || t == reply.to() || taken(l, j) == 0 {
            continue;
        }
        let guarded = attacks_of(pos, from).contains(t) && !attacks_of(now, reply.to()).contains(t);
        let checker = l.moves[j - 2];
        let checker_again = dest(checker) == m.from();
        // A check that takes something worth as much as the checker, the checker being taken back: a trade.
        let trade = reply.to() == checker.to() && taken(l, j - 2) >= value_at(l.before(j - 2), checker.from());
        if guarded && !trade && !(checker_again && value_at(now, t) >= 9) {
            push(
                out,
                Motif::Deflection,
                format!("{}被引离，不再保护 {}。", zh(pos, from), t.name()),
                format!("{} is drawn away and no longer guards {}.", en(pos, from), t.name()),
            );
            return;
        }
    }
}

/// A solver piece is given up on a square, the king (or queen, rook) takes it there, and is then hit there.
fn attraction(l: &Line, out: &mut Vec<Tag>) {
    for i in l.solver_plies() {
        if i + 2 >= l.moves.len() {
            break;
        }
        let (m, reply) = (l.moves[i], l.moves[i + 1]);
        let t = m.to();
        if reply.to() != t {
            continue;
        }
        let whom = l.before(i + 1).role_at(reply.from());
        if !matches!(whom, Some(Role::King | Role::Queen)) {
            continue;
        }
        let after = l.after(i + 2);
        let hit =
            after.is_attacked(t, l.pov) && (whom == Some(Role::King) && after.is_check() || whom != Some(Role::King));
        let next_takes = l.moves.get(i + 4).is_some_and(|n| n.to() == t) || after.is_checkmate();
        if hit && (next_takes || whom == Some(Role::King)) {
            let p = l.before(i + 1);
            push(
                out,
                Motif::Attraction,
                format!("{}被吸引到 {}，随即遭到攻击。", zh(p, reply.from()), t.name()),
                format!("{} is lured to {} and attacked there.", en(p, reply.from()), t.name()),
            );
            return;
        }
    }
}

/// The solver takes a piece that guarded another, then takes that one (or mates on the square it guarded).
fn capturing_defender(l: &Line, out: &mut Vec<Tag>) {
    for i in l.solver_plies() {
        if i + 2 >= l.moves.len() {
            break;
        }
        let (pos, m) = (l.before(i), l.moves[i]);
        if taken(l, i) == 0 {
            continue;
        }
        let d = m.to();
        let next = l.moves[i + 2];
        let t = next.to();
        let reply = l.moves[i + 1];
        if t == d || reply.to() == d && reply.from() == t {
            continue;
        }
        let was_guarded = attacks_of(pos, d).contains(t) && pos.color_at(t) == Some(!l.pov);
        let profit = (taken(l, i + 2) >= 1
            && l.before(i + 2).color_at(t) == Some(!l.pov)
            && pos.role_at(t) == l.before(i + 2).role_at(t))
            || l.after(i + 2).is_checkmate();
        if was_guarded && profit && reply.from() != t {
            push(
                out,
                Motif::CapturingDefender,
                format!("{}吃掉保护{}的{}。", zh(pos, m.from()), zh(pos, t), zh(pos, d)),
                format!("{} takes {}, the defender of {}.", en(pos, m.from()), en(pos, d), en(pos, t)),
            );
            return;
        }
    }
}

/// A solver piece lands between an enemy slider and what it guards, and the solver then wins what was cut off.
fn interference(l: &Line, out: &mut Vec<Tag>) {
    for i in l.solver_plies() {
        if i + 2 >= l.moves.len() {
            break;
        }
        let (pos, after, m) = (l.before(i), l.after(i), l.moves[i]);
        let t = m.to();
        if pos.occupied().contains(t) {
            continue;
        }
        let aim = l.moves[i + 2].to();
        let profit = taken(l, i + 2) >= 3 || l.after(i + 2).is_checkmate();
        if !profit {
            continue;
        }
        for s in pos.by_color(!l.pov) {
            if is_slider(pos, s)
                && attacks::between(s, aim).contains(t)
                && attacks_of(pos, s).contains(aim)
                && !attacks_of(after, s).contains(aim)
            {
                push(
                    out,
                    Motif::Interference,
                    format!("{}走到 {}，切断{}对 {} 的保护。", zh(pos, m.from()), t.name(), zh(pos, s), aim.name()),
                    format!(
                        "{} goes to {} and cuts {} off from {}.",
                        en(pos, m.from()),
                        t.name(),
                        en(pos, s),
                        aim.name()
                    ),
                );
                return;
            }
        }
    }
}

/// A solver move leaves a square, and the solver's next move, by another piece, goes to that square or through
/// it — a quiet move or a check that builds on it (not a capture, which is only an exchange going on, not a mate,
/// and not a check after a check, which is a chase of the king).
fn clearance(l: &Line, out: &mut Vec<Tag>) {
    for i in l.solver_plies() {
        if i + 2 >= l.moves.len() {
            break;
        }
        let (pos, m, next) = (l.before(i), l.moves[i], l.moves[i + 2]);
        if next.from() == dest(m) || m.is_castle() {
            continue;
        }
        let f = m.from();
        let p2 = l.before(i + 2);
        let uses =
            next.to() == f || (is_slider(p2, next.from()) && attacks::between(next.from(), next.to()).contains(f));
        let then = l.after(i + 2);
        if !uses || taken(l, i + 2) > 0 || then.is_checkmate() || (then.is_check() && l.after(i).is_check()) {
            continue;
        }
        push(
            out,
            Motif::Clearance,
            format!("{}让出 {}，{}随即利用它。", zh(pos, f), f.name(), zh(p2, next.from())),
            format!("{} clears {} and {} uses it next.", en(pos, f), f.name(), en(p2, next.from())),
        );
        return;
    }
}

/// The opponent's last move captured on a square where the solver could take back at once; the solver first plays
/// another move and takes back there with its next move — with another piece than the one that made the in-between
/// move (a piece that checks and then takes is a double attack), and the in-between move did not drive a guard of
/// that square away (that is a deflection).
fn intermezzo(l: &Line, out: &mut Vec<Tag>) {
    let Some((p, s)) = l.prev(0) else { return };
    if l.moves.len() < 3 || !p.is_capture(s) {
        return;
    }
    let t = s.to();
    let pos = l.before(0);
    let could = pos.legal_moves().iter().any(|&c| c.to() == t && pos.is_capture(c));
    let (m, reply, back) = (l.moves[0], l.moves[1], l.moves[2]);
    if !could || dest(m) == t || back.to() != t || back.from() == dest(m) {
        return;
    }
    let drawn_off = reply.to() != t
        && attacks_of(l.before(1), reply.from()).contains(t)
        && !attacks_of(l.before(2), reply.to()).contains(t);
    if drawn_off {
        return;
    }
    push(
        out,
        Motif::Intermezzo,
        format!(
            "{}没有马上在 {} 吃回，而是先走{}到 {}，下一步才吃回。",
            l.pov.fold("白方", "黑方"),
            t.name(),
            zh(pos, m.from()),
            m.to().name()
        ),
        format!(
            "{} does not take back on {} at once: {} first goes to {}, and the recapture follows.",
            l.pov.name(),
            t.name(),
            en(pos, m.from()),
            m.to().name()
        ),
    );
}

/// An attacked enemy piece with no safe square is won later in the line.
fn trapped(l: &Line, out: &mut Vec<Tag>) {
    for i in l.solver_plies() {
        let after = l.after(i);
        if after.is_check() {
            continue;
        }
        for x in after.by_color(!l.pov) {
            let Some(r) = after.role_at(x) else { continue };
            if matches!(r, Role::Pawn | Role::King) || best_attacker_gain(after, x) < 2 {
                continue;
            }
            let moves = after.legal_moves_from(x);
            let safe = moves.iter().any(|&mv| {
                see_units(after, mv) >= 0 && !after.after(mv).is_attacked(mv.to(), l.pov)
                    || see_units(after, mv) >= 0 && {
                        let p = after.after(mv);
                        best_capture_on_opp(&p, mv.to()) < 1
                    }
            });
            if safe {
                continue;
            }
            let won = (i + 2..l.moves.len()).step_by(2).any(|j| {
                l.before(j).role_at(l.moves[j].to()) == Some(r) && {
                    // the same piece: it stood on x or moved from x in between
                    let t = l.moves[j].to();
                    t == x || (i + 1 < l.moves.len() && l.moves[i + 1].from() == x && l.moves[i + 1].to() == t)
                }
            });
            if won {
                push(
                    out,
                    Motif::TrappedPiece,
                    format!("{}无路可逃，最终被吃掉。", zh(after, x)),
                    format!("{} has no safe square and is won.", en(after, x)),
                );
                return;
            }
        }
    }
}

/// What the solver would gain, by static exchange, taking on `x` if it were its turn.
fn best_attacker_gain(pos: &Position, x: Square) -> i32 {
    passed(pos).and_then(|p| best_capture_on(&p, x)).unwrap_or(-1)
}

fn best_capture_on_opp(pos: &Position, x: Square) -> i32 {
    best_capture_on(pos, x).unwrap_or(-1)
}

/// A solver pawn trade or sacrifice opens a line that a solver slider uses next.
fn line_opening(l: &Line, out: &mut Vec<Tag>) {
    for i in l.solver_plies() {
        if i + 2 >= l.moves.len() {
            break;
        }
        let (pos, m, next) = (l.before(i), l.moves[i], l.moves[i + 2]);
        if pos.role_at(m.from()) != Some(Role::Pawn) || m.is_promotion() {
            continue;
        }
        let p2 = l.before(i + 2);
        let f = m.from();
        let uses = is_slider(p2, next.from())
            && attacks::between(next.from(), next.to()).contains(f)
            && (taken(l, i + 2) > 0 || l.after(i + 2).is_check());
        if uses {
            push(
                out,
                Motif::LineOpening,
                format!("{}离开 {}，为{}打开线路。", zh(pos, f), f.name(), zh(p2, next.from())),
                format!("{} leaves {} and opens the line for {}.", en(pos, f), f.name(), en(p2, next.from())),
            );
            return;
        }
    }
}

/// A sacrifice on the enemy king's shelter, in a winning line.
fn demolition(l: &Line, out: &mut Vec<Tag>) {
    let start = balance(&l.boards[0], l.pov);
    for i in l.solver_plies() {
        if i + 1 >= l.moves.len() {
            break;
        }
        let (pos, m) = (l.before(i), l.moves[i]);
        let k = pos.king(!l.pov);
        let shelter = around(k);
        if taken(l, i) == 0 || !shelter.contains(m.to()) || pos.role_at(m.to()) != Some(Role::Pawn) {
            continue;
        }
        if l.moves[i + 1].to() == m.to() && balance(l.after(i + 1), l.pov) - start <= -2 {
            push(
                out,
                Motif::Demolition,
                format!("{}在 {} 弃子，捣毁王前的兵形。", zh(pos, m.from()), m.to().name()),
                format!("{} sacrifices itself on {} and smashes the king's shelter.", en(pos, m.from()), m.to().name()),
            );
            return;
        }
    }
}

/// The solver's first move takes an enemy piece (not a pawn) that no enemy piece can take back, and that is not
/// simply the second half of a trade: when the opponent's last move captured on that square, the piece now taken
/// is worth more than what it took.
fn hanging(l: &Line, out: &mut Vec<Tag>) {
    let (pos, m) = (l.before(0), l.moves[0]);
    let v = taken(l, 0);
    if v < 3 || l.after(0).is_attacked(m.to(), !l.pov) {
        return;
    }
    if let Some((p, s)) = l.prev(0)
        && s.to() == m.to()
        && p.is_capture(s)
        && v <= value_at(p, s.to()).max(1)
    {
        return;
    }
    push(
        out,
        Motif::HangingPiece,
        format!("{}没有保护，{}白吃它。", zh(pos, m.to()), zh(pos, m.from())),
        format!("{} is left hanging and {} takes it.", en(pos, m.to()), en(pos, m.from())),
    );
}

/// The solver's king makes two or more moves that are not answers to check.
fn king_walk(l: &Line, out: &mut Vec<Tag>) {
    let walks: Vec<usize> = l
        .solver_plies()
        .filter(|&i| {
            l.before(i).role_at(l.moves[i].from()) == Some(Role::King)
                && !l.before(i).is_check()
                && !l.moves[i].is_castle()
        })
        .collect();
    if walks.len() >= 2 {
        let pos = l.before(walks[0]);
        let last = l.moves[*walks.last().unwrap_or(&0)].to();
        push(
            out,
            Motif::KingWalk,
            format!("{}一路走到 {}。", zh(pos, l.moves[walks[0]].from()), last.name()),
            format!("{} walks up to {}.", en(pos, l.moves[walks[0]].from()), last.name()),
        );
    }
}

/// A solver move before the last that neither checks, captures nor promotes, and does not answer a check.
fn quiet(l: &Line, out: &mut Vec<Tag>) {
    for i in l.solver_plies() {
        if i + 1 >= l.moves.len() {
            break;
        }
        if forcing(l, i) || l.before(i).is_check() || l.moves[i].is_castle() {
            continue;
        }
        let pos = l.before(i);
        let m = l.moves[i];
        // A quiet move that makes no direct attack on a piece worth more than a pawn.
        let after = l.after(i);
        let mut hits = attacks_of(after, dest(m)) & after.by_color(!l.pov);
        let threat = Iterator::any(&mut hits, |t| {
            value_at(after, t) > value_at(after, dest(m)) || !after.is_attacked(t, !l.pov) && value_at(after, t) >= 3
        });
        if threat {
            continue;
        }
        push(
            out,
            Motif::QuietMove,
            format!("{}走到 {}，一步不将军也不吃子的安静着法。", zh(pos, m.from()), m.to().name()),
            format!("{} goes quietly to {}, with no check and no capture.", en(pos, m.from()), m.to().name()),
        );
        return;
    }
}

/// The opponent must move and every move worsens its position, while a pass would be safe.
fn zugzwang(l: &Line, out: &mut Vec<Tag>) {
    for i in l.solver_plies() {
        if i + 2 >= l.moves.len() {
            break;
        }
        let after = l.after(i);
        if after.is_check() || forcing(l, i) {
            continue;
        }
        let replies = after.legal_moves();
        if replies.len() > 12 {
            continue;
        }
        let Some(pass) = passed(after) else { continue };
        if has_mate_in_one(&pass) || pass.capture_moves().iter().any(|&c| see_units(&pass, c) >= 2) {
            continue;
        }
        let all_bad = replies.iter().all(|&r| {
            let p = after.after(r);
            has_mate_in_one(&p) || p.capture_moves().iter().any(|&c| see_units(&p, c) >= 2)
        });
        if all_bad {
            let side = (!l.pov).fold("白方", "黑方");
            push(
                out,
                Motif::Zugzwang,
                format!("{side}被迫走棋，每一步都会让局面变坏。"),
                format!("{} must move, and every move makes things worse.", (!l.pov).name()),
            );
            return;
        }
    }
}

/// The solver's last move is quiet and parries a threat the opponent had.
fn defensive(l: &Line, f: &Facts, out: &mut Vec<Tag>) {
    let i = l.moves.len() - 1;
    if !i.is_multiple_of(2) || forcing(l, i) || f.mate {
        return;
    }
    let (pos, after, m) = (l.before(i), l.after(i), l.moves[i]);
    let threat_before =
        passed(pos).is_some_and(|p| has_mate_in_one(&p) || p.capture_moves().iter().any(|&c| see_units(&p, c) >= 2));
    let threat_after = has_mate_in_one(after) || after.capture_moves().iter().any(|&c| see_units(after, c) >= 2);
    if threat_before && !threat_after {
        push(
            out,
            Motif::DefensiveMove,
            format!("{}走到 {}，化解对方的威胁。", zh(pos, m.from()), m.to().name()),
            format!("{} goes to {} and parries the threat.", en(pos, m.from()), m.to().name()),
        );
    }
}
