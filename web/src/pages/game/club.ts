// SPDX-License-Identifier: GPL-3.0-or-later
// Club rules on the game page (docs/game.md): adjournment with a sealed move — the offer, the move sealed on the
// board (hidden from the opponent), the resumption time proposed and agreed with a countdown, the opening and the
// outcomes of Articles 10.15 and 10.16 — a player's claim to the arbiter, the arbiters' notes, and the arbiter's
// panel, shown only to a user the server says is an arbiter of this game.

import { toast } from '../../app';
import { h, replace, replaceKeepingInput } from '../../dom';
import { getLang, pick, t } from '../../i18n';
import type { ArbiterAct, Color } from '../../protocol';
import type { Ctx } from './ctx';
import { isOver, myColor, mustSeal, ply, ruleParts } from './ctrl';
import type { GameState } from './ctrl';

const sideName = (c: Color): string => t(c === 'white' ? 'color.white' : 'color.black');

/** A Unix time in the UI's language. */
export function timeText(ms: number): string {
  return new Date(ms).toLocaleString(getLang() === 'zh' ? 'zh-CN' : 'en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
  });
}

/** `h:mm:ss` (or `m:ss`) until a time. */
export function countdown(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return hh > 0 ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

/** The value of a `datetime-local` input for a Unix time (local time, to the minute). */
function localInput(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** A datetime input and a button that sends its time; refuses a time in the past. */
function timeForm(testid: string, label: string, send: (atMs: number) => void): HTMLElement {
  const input = h('input', {
    type: 'datetime-local',
    // Seconds may be given (the minute is the default).
    step: '1',
    testid: `${testid}-time`,
    value: localInput(Date.now() + 3_600_000),
    'aria-label': t('adj.timeLabel'),
  });
  return h(
    'form',
    {
      class: 'offer',
      onsubmit: (e: SubmitEvent) => {
        e.preventDefault();
        const at = new Date(input.value).getTime();
        if (!Number.isFinite(at) || at <= Date.now()) {
          toast(t('adj.badTime'));
          return;
        }
        send(at);
      },
    },
    h('label', {}, t('adj.timeLabel'), ' ', input),
    h('button', { class: 'btn', type: 'submit', testid }, label),
  );
}

export function makeClubPanel(ctx: Ctx) {
  const el = h('div', { class: 'club', testid: 'club' });
  const arbiterEl = h('div', { class: 'arbiter-panel', testid: 'arbiter-panel', hidden: true });
  const countdownEl = h('span', { testid: 'resume-countdown' });

  function adjournmentItems(st: GameState): HTMLElement[] {
    const me = myColor(st);
    const a = st.adjourn;
    const over = isOver(st);
    const items: HTMLElement[] = [];
    const canOffer = ruleParts(st).includes('adjournment') && me && !over && ply(st) >= 2;
    if (!a) {
      if (canOffer && !st.paused) {
        items.push(
          h(
            'div',
            { class: 'offer mine' },
            h('button', { class: 'btn', testid: 'offer-adjournment', onclick: () => ctx.cmd({ t: 'adjourn_offer' }) }, t('adj.offer')),
          ),
        );
      }
      return items;
    }
    if (a.offered_by && !a.called && !a.sealed_by) {
      if (me && a.offered_by !== me) {
        items.push(
          h(
            'div',
            { class: 'offer', testid: 'adjournment-offered' },
            h('span', {}, t('adj.offered')),
            h('button', { class: 'btn good', testid: 'accept-adjournment', onclick: () => ctx.cmd({ t: 'adjourn_offer' }) }, t('adj.accept')),
          ),
        );
      } else {
        items.push(h('div', { class: 'offer mine', testid: 'adjournment-sent' }, me ? t('adj.offerSent') : t('adj.offeredBy', { side: sideName(a.offered_by) })));
      }
    }
    if (a.called) {
      const toSeal = st.line.positions[ply(st)].turn;
      if (mustSeal(st)) {
        items.push(h('div', { class: 'offer warn', testid: 'seal-now' }, t('adj.sealYours')));
        if (st.sealing) {
          const m = st.sealing;
          items.push(
            h(
              'div',
              { class: 'offer', testid: 'seal-confirm' },
              h('span', {}, t('adj.sealConfirm', { move: m.san })),
              h(
                'button',
                {
                  class: 'btn primary',
                  testid: 'seal-move',
                  onclick: () => {
                    ctx.dispatch({ kind: 'sealed_sent', san: m.san });
                    ctx.cmd({ t: 'seal', mv: m.san });
                  },
                },
                t('adj.seal'),
              ),
              h('button', { class: 'btn', testid: 'seal-cancel', onclick: () => ctx.dispatch({ kind: 'seal_confirm', move: null }) }, t('common.cancel')),
            ),
          );
        }
      } else {
        items.push(h('div', { class: 'offer mine', testid: 'seal-waiting' }, t('adj.sealTheirs', { side: sideName(toSeal) })));
      }
    }
    if (a.sealed_by) {
      items.push(h('div', { class: 'offer warn', testid: 'adjourned' }, a.resumed ? t('adj.resuming') : t('adj.sealed', { side: sideName(a.sealed_by) })));
      if (st.mySealed && me === a.sealed_by) {
        items.push(h('div', { class: 'offer mine', testid: 'my-sealed' }, t('adj.mySealed', { move: st.mySealed })));
      }
      if (a.resume_at_ms !== null && !a.resumed) {
        items.push(
          h(
            'div',
            { class: 'offer mine', testid: 'resume-at' },
            h('span', {}, t('adj.resumeAt', { time: timeText(a.resume_at_ms) }), ' '),
            countdownEl,
          ),
        );
      } else if (!a.resumed && me) {
        if (a.proposed_by && a.proposed_at_ms !== null && a.proposed_by !== me) {
          const at = a.proposed_at_ms;
          items.push(
            h(
              'div',
              { class: 'offer', testid: 'resumption-proposed' },
              h('span', {}, t('adj.proposedByThem', { time: timeText(at) })),
              h('button', { class: 'btn good', testid: 'agree-resumption', onclick: () => ctx.cmd({ t: 'propose_resumption', at_ms: at }) }, t('adj.agree')),
            ),
          );
        } else if (a.proposed_by === me && a.proposed_at_ms !== null) {
          items.push(h('div', { class: 'offer mine', testid: 'resumption-sent' }, t('adj.proposedByMe', { time: timeText(a.proposed_at_ms) })));
        }
        items.push(timeForm('propose-resumption', t('adj.propose'), (at) => ctx.cmd({ t: 'propose_resumption', at_ms: at })));
      }
    }
    return items;
  }

  function arbiterItems(st: GameState): HTMLElement[] {
    const items: HTMLElement[] = [];
    const me = myColor(st);
    if (st.dispute) {
      items.push(h('div', { class: 'offer warn', testid: 'dispute' }, t('arb.claim', { side: sideName(st.dispute.by), reason: st.dispute.reason })));
    } else if (me && !isOver(st) && st.snap?.rules) {
      // A player's claim or dispute for the arbiter (the clocks go on; the arbiter may pause them).
      const reason = h('input', { testid: 'claim-reason', placeholder: t('arb.callReason'), 'aria-label': t('arb.callReason') });
      items.push(
        h(
          'form',
          {
            class: 'offer mine call-arbiter',
            onsubmit: (e: SubmitEvent) => {
              e.preventDefault();
              if (!reason.value.trim()) {
                toast(t('arb.needReason'));
                return;
              }
              ctx.cmd({ t: 'call_arbiter', reason: reason.value.trim() });
            },
          },
          reason,
          h('button', { class: 'btn', type: 'submit', testid: 'call-arbiter' }, t('arb.call')),
        ),
      );
    }
    for (const [i, n] of st.notes.entries()) {
      items.push(h('div', { class: 'offer mine arbiter-note', testid: `arbiter-note-${i}` }, pick(n.message_zh, n.message_en)));
    }
    const s = st.status;
    if (s.status === 'finished' && (s.termination === 'sealed_move' || s.termination === 'late_arrival')) {
      items.push(h('div', { class: 'offer warn', testid: 'adjournment-article' }, t(s.termination === 'sealed_move' ? 'adj.explain.sealed_move' : 'adj.explain.late_arrival')));
    }
    return items;
  }

  function renderArbiter(st: GameState): void {
    arbiterEl.hidden = !st.arbiter || isOver(st);
    if (arbiterEl.hidden) {
      replace(arbiterEl);
      return;
    }
    const send = (act: ArbiterAct) => ctx.arbiter(act);
    const btn = (testid: string, label: string, act: ArbiterAct) => h('button', { class: 'btn', testid, onclick: () => send(act) }, label);
    const a = st.adjourn;
    const row: HTMLElement[] = [st.paused && !a?.sealed_by ? btn('arbiter-resume', t('arb.resume'), { t: 'resume' }) : btn('arbiter-pause', t('arb.pause'), { t: 'pause' })];
    if (!a?.sealed_by && !a?.called) row.push(btn('arbiter-call-adjournment', t('arb.callAdjournment'), { t: 'call_adjournment' }));
    if (a?.sealed_by) row.push(btn('arbiter-open', t('arb.open'), { t: 'open_sealed_move' }));
    // Time for a player.
    const color = h('select', { testid: 'arbiter-time-color', 'aria-label': t('arb.addTime') }, h('option', { value: 'white' }, t('color.white')), h('option', { value: 'black' }, t('color.black')));
    const minutes = h('input', { type: 'number', min: '1', max: '1440', value: '2', testid: 'arbiter-minutes', 'aria-label': t('arb.minutes') });
    const time = h(
      'form',
      {
        class: 'arbiter-row',
        onsubmit: (e: SubmitEvent) => {
          e.preventDefault();
          const m = Number(minutes.value);
          if (!Number.isFinite(m) || m <= 0) return;
          send({ t: 'add_time', color: color.value as Color, ms: Math.round(m * 60_000) });
        },
      },
      color,
      minutes,
      h('span', {}, t('arb.minutes')),
      h('button', { class: 'btn', type: 'submit', testid: 'arbiter-add-time' }, t('arb.addTime')),
    );
    // A claim to decide.
    const decide: HTMLElement[] = [];
    if (st.dispute) {
      const ruling = h('input', { testid: 'arbiter-ruling', placeholder: t('arb.ruling'), 'aria-label': t('arb.ruling') });
      const rule = (uphold: boolean) => () => {
        if (!ruling.value.trim()) {
          toast(t('arb.needReason'));
          return;
        }
        send({ t: 'decide', uphold, ruling: ruling.value.trim() });
      };
      decide.push(
        h(
          'div',
          { class: 'arbiter-row' },
          ruling,
          h('button', { class: 'btn good', testid: 'arbiter-uphold', onclick: rule(true) }, t('arb.uphold')),
          h('button', { class: 'btn', testid: 'arbiter-reject', onclick: rule(false) }, t('arb.reject')),
        ),
      );
    }
    // A result with its reason.
    const result = h('select', { testid: 'arbiter-result', 'aria-label': t('arb.result') }, ...['1-0', '0-1', '1/2-1/2'].map((r) => h('option', { value: r }, r === '1/2-1/2' ? '½-½' : r)));
    const reason = h('input', { testid: 'arbiter-reason', placeholder: t('arb.reason'), 'aria-label': t('arb.reason') });
    const infraction = h('input', { type: 'checkbox', testid: 'arbiter-infraction' });
    const resultForm = h(
      'form',
      {
        class: 'arbiter-row',
        onsubmit: (e: SubmitEvent) => {
          e.preventDefault();
          if (!reason.value.trim()) {
            toast(t('arb.needReason'));
            return;
          }
          send({ t: 'set_result', result: result.value, reason: reason.value.trim(), infraction: infraction.checked });
        },
      },
      result,
      reason,
      h('label', { class: 'check' }, infraction, ' ', t('arb.infraction')),
      h('button', { class: 'btn bad', type: 'submit', testid: 'arbiter-set-result' }, t('arb.result')),
    );
    const schedule = a?.sealed_by && !a.resumed ? [timeForm('arbiter-schedule', t('arb.schedule'), (at) => send({ t: 'schedule_resumption', at_ms: at }))] : [];
    replaceKeepingInput(arbiterEl, h('h3', {}, t('arb.title')), h('div', { class: 'arbiter-row' }, ...row), time, ...decide, resultForm, ...schedule);
  }

  function tick(st: GameState): void {
    const at = st.adjourn?.resume_at_ms;
    if (at != null && countdownEl.isConnected) countdownEl.textContent = t('adj.left', { left: countdown(at - Date.now()) });
  }

  return {
    el,
    arbiterEl,
    render(st: GameState): void {
      replaceKeepingInput(el, ...adjournmentItems(st), ...arbiterItems(st));
      renderArbiter(st);
      tick(st);
    },
    tick(st: GameState, _now: number): void {
      tick(st);
    },
  };
}
