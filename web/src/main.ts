// SPDX-License-Identifier: GPL-3.0-or-later
// Entry point: the header, the client-side routes, the session (a guest one if needed) and the socket.

import { api, onPasswordChangeRequired } from './api';
import { classRoles, currentUser, ensureUser, errorText, gameStartClaimed, link, notFoundEl, onUserChange, sessionChanged, setNavigate, socket, toast } from './app';
import type { Page } from './app';
import { h, replace } from './dom';
import { getLang, onLangChange, setLang, t } from './i18n';
import { accountPage } from './pages/account';
import { analysisPage } from './pages/analysis';
import { challengePage } from './pages/challenge';
import { classListPage, classPage } from './pages/class/index';
import { homeworkPage } from './pages/class/homework';
import { gamePage } from './pages/game/index';
import { homePage } from './pages/home';
import { learnIndexPage, lessonPage } from './pages/learn';
import { loginPage } from './pages/login';
import { passwordPage } from './pages/password';
import { profilePage } from './pages/profile';
import { puzzlePage } from './pages/puzzle';
import { studyListPage, studyPage } from './pages/study/index';
import { tournamentListPage } from './pages/tournament/list';
import { tournamentPage } from './pages/tournament';
import { displayName } from './ui/names';
// After chessground's stylesheets (imported by the board), so that ours wins.
import './style.css';

const header = h('header', { class: 'top' });
const main = h('main', { id: 'page' });
const connEl = h('div', { class: 'conn-lost', hidden: true, testid: 'disconnected' });
document.getElementById('app')!.append(header, connEl, main);

let page: Page | null = null;

function route(path: string, query: URLSearchParams): Page {
  let m: RegExpExecArray | null;
  if (path === '/' || path === '') return homePage(query.get('computer'));
  if ((m = /^\/game\/([A-Za-z0-9]+)\/?$/.exec(path))) return gamePage(m[1]);
  if ((m = /^\/challenge\/([A-Za-z0-9]+)\/?$/.exec(path))) return challengePage(m[1]);
  if (path === '/analysis' || path === '/analysis/') return analysisPage(null, query);
  if ((m = /^\/analysis\/([A-Za-z0-9]+)\/?$/.exec(path))) return analysisPage(m[1], query);
  if ((m = /^\/@\/([^/]+)\/?$/.exec(path))) return profilePage(decodeURIComponent(m[1]));
  // Before the game ids: "register" has eight letters too.
  if (path === '/login' || path === '/register') return loginPage();
  if (path === '/account' || path === '/account/') return accountPage();
  if (path === '/password' || path === '/password/') return passwordPage();
  if (path === '/class' || path === '/class/') return classListPage();
  if ((m = /^\/class\/([A-Za-z0-9_-]{1,40})\/?$/.exec(path))) return classPage(m[1]);
  if (path === '/homework' || path === '/homework/') return homeworkPage();
  if (path === '/study' || path === '/study/') return studyListPage();
  if ((m = /^\/study\/([A-Za-z0-9_-]{1,40})\/?$/.exec(path))) return studyPage(m[1]);
  // The PGN's Site tag links to {base}/{gameId}, Lichess style.
  if ((m = /^\/([A-Za-z0-9]{8})\/?$/.exec(path))) return gamePage(m[1]);
  if (path === '/learn' || path === '/learn/') return learnIndexPage();
  if ((m = /^\/learn\/([a-z0-9_]+)\/?$/.exec(path))) return lessonPage(m[1]);
  if (path === '/tournaments' || path === '/tournaments/') return tournamentListPage();
  if ((m = /^\/tournament\/([A-Za-z0-9]+)\/?$/.exec(path))) return tournamentPage(m[1]);
  if (path === '/puzzle' || path === '/puzzle/') return puzzlePage('train', null, query.get('theme'));
  if ((m = /^\/puzzle\/(daily|streak|dashboard)\/?$/.exec(path))) return puzzlePage(m[1] as 'daily' | 'streak' | 'dashboard');
  if ((m = /^\/puzzle\/([A-Za-z0-9_-]{1,40})\/?$/.exec(path))) return puzzlePage('train', m[1]);
  return { el: notFoundEl() };
}

function mount(): void {
  page?.destroy?.();
  page = route(location.pathname, new URLSearchParams(location.search));
  replace(main, page.el);
  document.title = getLang() === 'zh' ? '国象 · guoxiang' : 'Guoxiang';
  renderHeader();
}

function navigate(path: string, replaceState = false): void {
  if (path === location.pathname + location.search) return;
  if (replaceState) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  mount();
  window.scrollTo(0, 0);
}
setNavigate(navigate);
// A student whose teacher reset the password chooses a new one before anything else.
onPasswordChangeRequired(() => {
  if (location.pathname !== '/password') navigate('/password', true);
});

window.addEventListener('popstate', mount);
document.addEventListener('click', (e) => {
  const a = (e.target as Element | null)?.closest?.('a[data-link]');
  if (!(a instanceof HTMLAnchorElement) || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
  e.preventDefault();
  navigate(a.getAttribute('href') ?? '/');
});

function renderHeader(): void {
  const me = currentUser();
  const path = location.pathname;
  replace(
    header,
    h(
      'div',
      { class: 'top-inner' },
      link('/', t('app.name'), { class: 'brand', testid: 'home-link' }),
      h(
        'nav',
        {},
        link('/', t('nav.play'), { class: path === '/' ? 'active' : '' }),
        link('/learn', t('nav.learn'), { class: path.startsWith('/learn') ? 'active' : '', testid: 'learn-nav' }),
        link('/puzzle', t('nav.puzzle'), { class: path.startsWith('/puzzle') ? 'active' : '', testid: 'puzzle-nav' }),
        link('/tournaments', t('nav.tournaments'), { class: path.startsWith('/tournament') ? 'active' : '', testid: 'nav-tournaments' }),
        link('/analysis', t('nav.analysis'), { class: path.startsWith('/analysis') ? 'active' : '', testid: 'nav-analysis' }),
      ),
      h(
        'div',
        { class: 'user' },
        me
          ? link(`/@/${encodeURIComponent(me.username)}`, displayName(me.username), { class: 'me', testid: 'me', translate: 'no' })
          : null,
        !me || me.guest ? link('/login', t('nav.login'), { class: 'login-link', testid: 'nav-login' }) : null,
        !me || me.guest ? link('/register', t('nav.register'), { class: 'login-link register-link', testid: 'nav-register' }) : null,
        me && !me.guest && classRoles().student
          ? link('/homework', t('nav.homework'), { class: `account-link homework-link${path === '/homework' ? ' active' : ''}`, testid: 'nav-homework' })
          : null,
        me && !me.guest && (classRoles().teacher || !classRoles().student)
          ? link('/class', t('nav.classes'), { class: `account-link${path.startsWith('/class') ? ' active' : ''}`, testid: 'nav-classes' })
          : null,
        me && !me.guest
          ? link('/study', t('nav.studies'), { class: `account-link${path.startsWith('/study') ? ' active' : ''}`, testid: 'nav-studies' })
          : null,
        me && !me.guest ? link('/account', t('nav.account'), { class: 'account-link', testid: 'nav-account' }) : null,
        me && !me.guest
          ? h(
              'button',
              {
                class: 'btn small logout',
                testid: 'nav-logout',
                type: 'button',
                onclick: () => {
                  api
                    .logout()
                    .then(() => sessionChanged())
                    // The page shown may be the account's (its games, its ratings): start again from home.
                    .then(() => (location.pathname === '/' ? mount() : navigate('/')))
                    .catch((e: unknown) => toast(errorText(e)));
                },
              },
              t('nav.logout'),
            )
          : null,
        h(
          'button',
          {
            class: 'btn lang',
            testid: 'lang-switch',
            title: t('nav.langTitle'),
            'aria-label': t('nav.langTitle'),
            lang: getLang() === 'zh' ? 'en' : 'zh',
            onclick: () => setLang(getLang() === 'zh' ? 'en' : 'zh'),
          },
          t('nav.otherLang'),
        ),
      ),
    ),
  );
}

onLangChange(() => {
  document.documentElement.lang = getLang() === 'zh' ? 'zh-CN' : 'en';
  mount();
});
onUserChange(renderHeader);

// A game made for us (the computer, a pool, a seek, a friend, a rematch): go there.
socket.on((m) => {
  if (m.t === 'game_started') {
    if (!gameStartClaimed(m.game_id)) navigate(`/game/${m.game_id}`);
  } else if (m.t === 'error' && m.id === null) {
    toast(getLang() === 'zh' ? m.message_zh : m.message_en);
  }
});

let everReady = false;
socket.onReady(() => {
  everReady = true;
  connEl.hidden = true;
});
window.setInterval(() => {
  const lost = everReady && !socket.isReady;
  connEl.hidden = !lost;
  if (lost) connEl.textContent = t('app.reconnecting');
}, 1000);

document.documentElement.lang = getLang() === 'zh' ? 'zh-CN' : 'en';
void ensureUser().then(() => {
  socket.connect();
  mount();
});
