// SPDX-License-Identifier: GPL-3.0-or-later
// Every string of the UI in 简体中文 and English. `zh` defines the keys; `en` must have exactly the same ones (a
// missing or extra key is a compile error). The language defaults to the browser's and is remembered.
// Vocabulary follows the Chinese guides our players read: 将军, 将死, 和棋, 逼和, 长将, 三次重复, 50回合规则,
// 王车易位, 吃过路兵, 升变, 认输, 提和, 悔棋.

import type { Lang } from './protocol';

const zh = {
  'app.name': '国象',
  'app.reconnecting': '连接中断，正在重新连接…',
  'error.generic': '出错了，请稍后再试',
  'notFound.title': '找不到这个页面',
  'notFound.home': '返回首页',

  'nav.play': '对弈',
  'nav.analysis': '分析',
  'nav.login': '登录 / 注册',
  'nav.otherLang': 'English',
  'nav.langTitle': '切换语言 / Switch language',
  'nav.first': '第一步',
  'nav.prev': '上一步',
  'nav.next': '下一步',
  'nav.last': '最新一步',

  'common.cancel': '取消',
  'common.accept': '同意',
  'common.decline': '拒绝',
  'common.yes': '确定',
  'common.no': '不了',
  'common.loading': '加载中…',

  'color.white': '白方',
  'color.black': '黑方',
  'color.choice.white': '执白',
  'color.choice.black': '执黑',
  'color.choice.random': '随机',

  'piece.queen': '后',
  'piece.rook': '车',
  'piece.bishop': '象',
  'piece.knight': '马',

  'speed.bullet': '超快棋',
  'speed.blitz': '快棋',
  'speed.rapid': '快速棋',
  'speed.classical': '慢棋',
  'speed.correspondence': '通讯棋 / 不限时',

  'tc.bullet': '超快棋',
  'tc.blitz': '快棋',
  'tc.rapid': '快速棋',
  'tc.classical': '慢棋',
  'tc.none': '不限时',
  'tc.unlimited': '不限时',
  'tc.seconds': '{s}秒+{inc}',

  'engine.name': '电脑 {level} 级',

  'home.title': '下一盘国际象棋',
  'home.subtitle': '和电脑、朋友或在线棋手对弈。游客也可以下非计分对局。',
  'home.playComputer': '与电脑对弈',
  'home.playFriend': '与朋友对弈',
  'home.createSeek': '发布对局邀请',
  'home.level': '电脑级别',
  'home.levelOption': '{level} 级 · {name}（约 {elo} 分）',
  'home.color': '我的颜色',
  'home.timeControl': '用时',
  'home.tcHelp': '格式：基本用时秒数+每步加秒，例如 300+3 是 5 分钟、每步加 3 秒；- 表示不限时。',
  'home.rated': '计分对局',
  'home.ratedNeedsAccount': '计分对局（需要注册账号）',
  'home.start': '开始对局',
  'home.createLink': '生成邀请链接',
  'home.postSeek': '发布',
  'home.linkReady': '邀请链接已生成',
  'home.sendLink': '把这个链接发给朋友，对方打开后点击“接受挑战”即可开始：',
  'home.copy': '复制',
  'home.copied': '已复制',
  'home.waitingFriend': '正在等待朋友接受…',
  'home.challengeClosed': '邀请已取消或被拒绝',
  'home.seekPosted': '邀请已发布，等待对手加入',
  'home.quickPairing': '快速配对',
  'home.lobby': '大厅',
  'home.liveGames': '正在进行的对局',
  'home.noSeeks': '暂时没有对局邀请。',
  'home.noLiveGames': '现在没有正在进行的对局。',
  'home.player': '棋手',
  'home.rating': '等级分',
  'home.mode': '类型',
  'home.ratedShort': '计分',
  'home.casualShort': '非计分',
  'home.join': '加入',
  'home.searching': '正在寻找对手…（点击取消）',
  'home.waitingN': '{n} 人等待',
  'home.yourGames': '你正在下的对局',
  'home.resume': '继续对局 {id}',

  'challenge.title': '对局邀请',
  'challenge.from': '邀请人',
  'challenge.yourColor': '你执',
  'challenge.days': '每步 {n} 天',
  'challenge.accept': '接受挑战',
  'challenge.closed': '这个邀请已经结束。',

  'game.typeMove': '输入着法：e4、Nf3 或 马f3',
  'game.notYourTurn': '还没轮到你走棋',
  'game.spectating': '你在观战',
  'game.spectatingTurn': '观战中 · 轮到{side}走棋',
  'game.yourTurn': '轮到你走棋',
  'game.opponentTurn': '等待对方走棋…',
  'game.illegalMove': '这步棋不合规则',
  'game.unreadableMove': '看不懂“{move}”：请用 e4、Nf3、马f3、O-O 这样的记法',
  'game.promoteTo': '兵升变为：',
  'game.disconnected': '已离线',
  'game.opponentGone': '对方已离开对局。',
  'game.opponentGoneWait': '对方已离开对局；{n} 秒后仍未回来，你可以宣布获胜。',
  'game.claimVictory': '宣布获胜',
  'game.drawOffered': '对方提和。',
  'game.acceptDraw': '同意和棋',
  'game.declineDraw': '拒绝',
  'game.drawSent': '你已提和，等待对方答复。',
  'game.takebackOffered': '对方请求悔棋。',
  'game.takebackSent': '已请求悔棋，等待对方答复。',
  'game.rematchOffered': '对方想再下一盘。',
  'game.rematchSent': '已请求再来一盘，等待对方答复。',
  'game.rematchDeclined': '对方拒绝了再来一盘。',
  'game.abort': '中止对局',
  'game.takeback': '悔棋',
  'game.offerDraw': '提和',
  'game.offerDrawWithMove': '提和：按规则随着你的下一步棋提出',
  'game.offerDrawArmed': '提和（随下一步）✓',
  'game.offerArmed': '走出下一步时将同时提和',
  'game.offerDisarmed': '已取消提和',
  'game.claimThreefold': '要求和棋（三次重复局面）',
  'game.claimFifty': '要求和棋（50回合规则）',
  'game.moveAllowsThreefold': '走这步棋后将第三次出现同一局面：你可以随这步棋要求和棋。',
  'game.moveAllowsFifty': '走这步棋后满 50 回合没有吃子和走兵：你可以随这步棋要求和棋。',
  'game.claimWithMove': '要求和棋（写下这步棋）',
  'game.justPlay': '只走棋',
  'game.resign': '认输',
  'game.resignConfirm': '确定认输吗？',
  'game.rematch': '再来一盘',
  'game.downloadPgn': '下载棋谱（PGN）',
  'game.analyse': '分析',
  'game.newGame': '新对局',
  'game.flip': '翻转棋盘',
  'game.noMoves': '还没有走棋',

  'result.whiteWins': '白方胜',
  'result.blackWins': '黑方胜',
  'result.draw': '和棋',
  'result.aborted': '对局已中止',
  'result.abortedBy': '{side}中止了对局',
  'result.abortedTimeout': '有一方没有在规定时间内走出第一步，对局中止',

  'term.checkmate': '将死',
  'term.stalemate': '逼和',
  'term.dead_position': '双方都无法将死对方 — 和棋',
  'term.threefold_repetition': '三次重复局面 — 和棋',
  'term.fivefold_repetition': '五次重复局面 — 和棋',
  'term.fifty_moves': '50回合规则 — 和棋',
  'term.seventy_five_moves': '75回合规则 — 和棋',
  'term.resignation': '认输',
  'term.agreement': '双方同意和棋',
  'term.time_forfeit': '超时判负',
  'term.time_forfeit_draw': '超时，但对方无法将死 — 和棋',
  'term.abandoned': '一方离开了对局',
  'term.adjudication': '裁决',

  'settings.chineseLetters': '棋谱用中文棋子名',

  'analysis.engine': '引擎评估',
  'analysis.thinking': '引擎思考中…',
  'analysis.evalLine': '{score}（深度 {depth}）',
  'analysis.bestLine': '最佳着法：',
  'analysis.mate': '将死',
  'analysis.stalemate': '逼和',
  'analysis.drawn': '和棋',
  'analysis.over': '对局已结束',
  'analysis.graph': '分析整盘棋（评估曲线）',
  'analysis.progress': '正在评估第 {done} / {total} 个局面…',
  'analysis.progressDone': '已评估全部 {total} 个局面',
  'analysis.load': '导入棋谱或局面',
  'analysis.paste': '粘贴 PGN 棋谱或 FEN 局面',
  'analysis.loadButton': '导入',
  'analysis.reset': '初始局面',
  'analysis.fromFen': '从 FEN 局面开始',
  'analysis.badInput': '无法识别：请粘贴 PGN 棋谱或 FEN',
  'analysis.badMove': '棋谱中的“{san}”不合规则，只导入了它之前的着法',
  'analysis.noMoves': '在棋盘上走棋，或导入棋谱',

  'profile.ratings': '等级分（Glicko-2）',
  'profile.history': '等级分变化',
  'profile.games': '对局',
  'profile.points': '积分 {n}',
  'profile.gameCount': '对局 {n} 盘',
  'profile.guest': '游客',
  'profile.online': '在线',
  'profile.playingNow': '正在下：',
  'profile.downloadAll': '下载全部棋谱',
  'profile.logout': '退出登录',
  'profile.speed': '类别',
  'profile.provisional': '带“?”的等级分尚未稳定（对局太少）。',
  'profile.noHistory': '还没有计分对局。',
  'profile.noGames': '还没有对局。',
  'profile.players': '对局双方',
  'profile.result': '结果',
  'profile.opening': '开局',
  'profile.date': '时间',
  'profile.newer': '较新',
  'profile.older': '较早',
  'profile.range': '第 {from}–{to} 盘，共 {total} 盘',

  'login.title': '登录或注册',
  'login.username': '用户名',
  'login.password': '密码',
  'login.login': '登录',
  'login.register': '注册新账号',
  'login.rules': '用户名 2–20 个字符（字母、数字、汉字、_ 或 -）；密码至少 8 个字符。',
  'login.guestNote': '你现在是游客（{name}），可以下非计分对局。注册后可以下计分对局并保存等级分。',
};

export type Key = keyof typeof zh;

const en: Record<Key, string> = {
  'app.name': 'Guoxiang',
  'app.reconnecting': 'Connection lost, reconnecting…',
  'error.generic': 'Something went wrong, please try again',
  'notFound.title': 'Page not found',
  'notFound.home': 'Back to the home page',

  'nav.play': 'Play',
  'nav.analysis': 'Analysis',
  'nav.login': 'Log in / Register',
  'nav.otherLang': '中文',
  'nav.langTitle': 'Switch language / 切换语言',
  'nav.first': 'First move',
  'nav.prev': 'Previous move',
  'nav.next': 'Next move',
  'nav.last': 'Latest move',

  'common.cancel': 'Cancel',
  'common.accept': 'Accept',
  'common.decline': 'Decline',
  'common.yes': 'Yes',
  'common.no': 'No',
  'common.loading': 'Loading…',

  'color.white': 'White',
  'color.black': 'Black',
  'color.choice.white': 'White',
  'color.choice.black': 'Black',
  'color.choice.random': 'Random',

  'piece.queen': 'Queen',
  'piece.rook': 'Rook',
  'piece.bishop': 'Bishop',
  'piece.knight': 'Knight',

  'speed.bullet': 'Bullet',
  'speed.blitz': 'Blitz',
  'speed.rapid': 'Rapid',
  'speed.classical': 'Classical',
  'speed.correspondence': 'Correspondence / unlimited',

  'tc.bullet': 'Bullet',
  'tc.blitz': 'Blitz',
  'tc.rapid': 'Rapid',
  'tc.classical': 'Classical',
  'tc.none': 'Unlimited',
  'tc.unlimited': 'Unlimited',
  'tc.seconds': '{s}s+{inc}',

  'engine.name': 'Computer level {level}',

  'home.title': 'Play a game of chess',
  'home.subtitle': 'Play the computer, a friend or someone online. Guests can play casual games.',
  'home.playComputer': 'Play the computer',
  'home.playFriend': 'Play a friend',
  'home.createSeek': 'Post a seek',
  'home.level': 'Computer level',
  'home.levelOption': 'Level {level} · {name} (about {elo})',
  'home.color': 'My colour',
  'home.timeControl': 'Time control',
  'home.tcHelp': 'Format: base seconds+increment per move, e.g. 300+3 is 5 minutes plus 3 seconds a move; - means no limit.',
  'home.rated': 'Rated game',
  'home.ratedNeedsAccount': 'Rated game (needs an account)',
  'home.start': 'Start the game',
  'home.createLink': 'Create an invitation link',
  'home.postSeek': 'Post',
  'home.linkReady': 'Your invitation link is ready',
  'home.sendLink': 'Send this link to your friend; the game starts when they open it and click “Accept the challenge”:',
  'home.copy': 'Copy',
  'home.copied': 'Copied',
  'home.waitingFriend': 'Waiting for your friend to accept…',
  'home.challengeClosed': 'The invitation was cancelled or declined',
  'home.seekPosted': 'Seek posted, waiting for an opponent',
  'home.quickPairing': 'Quick pairing',
  'home.lobby': 'Lobby',
  'home.liveGames': 'Games being played',
  'home.noSeeks': 'No seeks at the moment.',
  'home.noLiveGames': 'No games are being played right now.',
  'home.player': 'Player',
  'home.rating': 'Rating',
  'home.mode': 'Mode',
  'home.ratedShort': 'Rated',
  'home.casualShort': 'Casual',
  'home.join': 'Join',
  'home.searching': 'Looking for an opponent… (click to cancel)',
  'home.waitingN': '{n} waiting',
  'home.yourGames': 'Your games in progress',
  'home.resume': 'Resume game {id}',

  'challenge.title': 'Invitation to a game',
  'challenge.from': 'From',
  'challenge.yourColor': 'You play',
  'challenge.days': '{n} days per move',
  'challenge.accept': 'Accept the challenge',
  'challenge.closed': 'This invitation is no longer open.',

  'game.typeMove': 'Type a move: e4, Nf3, O-O',
  'game.notYourTurn': 'It is not your turn',
  'game.spectating': 'You are watching this game',
  'game.spectatingTurn': 'Watching · {side} to move',
  'game.yourTurn': 'Your turn',
  'game.opponentTurn': 'Waiting for your opponent…',
  'game.illegalMove': 'That move is not legal',
  'game.unreadableMove': 'Cannot read “{move}”: write moves like e4, Nf3 or O-O',
  'game.promoteTo': 'Promote the pawn to:',
  'game.disconnected': 'offline',
  'game.opponentGone': 'Your opponent left the game.',
  'game.opponentGoneWait': 'Your opponent left the game; if they are not back in {n} s, you can claim victory.',
  'game.claimVictory': 'Claim victory',
  'game.drawOffered': 'Your opponent offers a draw.',
  'game.acceptDraw': 'Accept the draw',
  'game.declineDraw': 'Decline',
  'game.drawSent': 'You offered a draw; waiting for the answer.',
  'game.takebackOffered': 'Your opponent asks to take back a move.',
  'game.takebackSent': 'Takeback requested; waiting for the answer.',
  'game.rematchOffered': 'Your opponent wants a rematch.',
  'game.rematchSent': 'Rematch requested; waiting for the answer.',
  'game.rematchDeclined': 'Your opponent declined the rematch.',
  'game.abort': 'Abort the game',
  'game.takeback': 'Take back',
  'game.offerDraw': 'Offer a draw',
  'game.offerDrawWithMove': 'Offer a draw: by the rules it goes with your next move',
  'game.offerDrawArmed': 'Draw offer (with next move) ✓',
  'game.offerArmed': 'Your next move will carry a draw offer',
  'game.offerDisarmed': 'Draw offer cancelled',
  'game.claimThreefold': 'Claim a draw (threefold repetition)',
  'game.claimFifty': 'Claim a draw (fifty-move rule)',
  'game.moveAllowsThreefold': 'This move repeats the position for the third time: you may claim a draw with it.',
  'game.moveAllowsFifty': 'After this move fifty moves have passed without a capture or a pawn move: you may claim a draw with it.',
  'game.claimWithMove': 'Claim a draw (with this move)',
  'game.justPlay': 'Just play it',
  'game.resign': 'Resign',
  'game.resignConfirm': 'Really resign?',
  'game.rematch': 'Rematch',
  'game.downloadPgn': 'Download PGN',
  'game.analyse': 'Analyse',
  'game.newGame': 'New game',
  'game.flip': 'Flip the board',
  'game.noMoves': 'No moves yet',

  'result.whiteWins': 'White wins',
  'result.blackWins': 'Black wins',
  'result.draw': 'Draw',
  'result.aborted': 'Game aborted',
  'result.abortedBy': '{side} aborted the game',
  'result.abortedTimeout': 'A first move was not made in time: the game was aborted',

  'term.checkmate': 'Checkmate',
  'term.stalemate': 'Stalemate',
  'term.dead_position': 'Neither side can checkmate — draw',
  'term.threefold_repetition': 'Threefold repetition — draw',
  'term.fivefold_repetition': 'Fivefold repetition — draw',
  'term.fifty_moves': 'Fifty-move rule — draw',
  'term.seventy_five_moves': 'Seventy-five-move rule — draw',
  'term.resignation': 'Resignation',
  'term.agreement': 'Draw by agreement',
  'term.time_forfeit': 'Lost on time',
  'term.time_forfeit_draw': 'Time ran out, but the opponent cannot checkmate — draw',
  'term.abandoned': 'A player left the game',
  'term.adjudication': 'Adjudication',

  'settings.chineseLetters': 'Chinese piece letters in the move list',

  'analysis.engine': 'Engine evaluation',
  'analysis.thinking': 'The engine is thinking…',
  'analysis.evalLine': '{score} (depth {depth})',
  'analysis.bestLine': 'Best line:',
  'analysis.mate': 'Checkmate',
  'analysis.stalemate': 'Stalemate',
  'analysis.drawn': 'Draw',
  'analysis.over': 'The game is over',
  'analysis.graph': 'Analyse the whole game (evaluation graph)',
  'analysis.progress': 'Evaluating position {done} of {total}…',
  'analysis.progressDone': 'All {total} positions evaluated',
  'analysis.load': 'Load a game or a position',
  'analysis.paste': 'Paste a PGN game or a FEN position',
  'analysis.loadButton': 'Load',
  'analysis.reset': 'Starting position',
  'analysis.fromFen': 'From a FEN position',
  'analysis.badInput': 'Not understood: paste a PGN game or a FEN',
  'analysis.badMove': '“{san}” in the game is not legal; only the moves before it were loaded',
  'analysis.noMoves': 'Move on the board, or load a game',

  'profile.ratings': 'Ratings (Glicko-2)',
  'profile.history': 'Rating history',
  'profile.games': 'Games',
  'profile.points': '{n} points',
  'profile.gameCount': 'games played: {n}',
  'profile.guest': 'guest',
  'profile.online': 'online',
  'profile.playingNow': 'Playing now:',
  'profile.downloadAll': 'Download all games',
  'profile.logout': 'Log out',
  'profile.speed': 'Speed',
  'profile.provisional': 'A rating with “?” is provisional (too few games).',
  'profile.noHistory': 'No rated games yet.',
  'profile.noGames': 'No games yet.',
  'profile.players': 'Players',
  'profile.result': 'Result',
  'profile.opening': 'Opening',
  'profile.date': 'Date',
  'profile.newer': 'Newer',
  'profile.older': 'Older',
  'profile.range': 'Games {from}–{to} of {total}',

  'login.title': 'Log in or register',
  'login.username': 'User name',
  'login.password': 'Password',
  'login.login': 'Log in',
  'login.register': 'Register a new account',
  'login.rules': 'User names have 2–20 characters (letters, digits, _ or -); passwords at least 8.',
  'login.guestNote': 'You are playing as a guest ({name}) and can play casual games. An account lets you play rated games and keep a rating.',
};

export const TABLES: Record<Lang, Record<Key, string>> = { zh, en };

const STORE = 'gx.lang';

function initialLang(): Lang {
  try {
    const saved = localStorage.getItem(STORE);
    if (saved === 'zh' || saved === 'en') return saved;
  } catch {
    // no storage
  }
  const langs = navigator.languages?.length ? navigator.languages : [navigator.language];
  for (const l of langs) {
    const x = (l || '').toLowerCase();
    if (x.startsWith('zh')) return 'zh';
    if (x.startsWith('en')) return 'en';
  }
  return 'zh';
}

let lang: Lang = initialLang();
const listeners = new Set<() => void>();

export function getLang(): Lang {
  return lang;
}

export function setLang(l: Lang): void {
  if (l === lang) return;
  lang = l;
  try {
    localStorage.setItem(STORE, l);
  } catch {
    // not remembered
  }
  for (const cb of listeners) cb();
}

export function onLangChange(cb: () => void): () => void {
  listeners.add(cb);
  return () => listeners.delete(cb);
}

/** The string for `key` in the current language, with `{name}` placeholders filled. */
export function t(key: Key, params?: Record<string, string>): string {
  let s = TABLES[lang][key];
  if (params) for (const [k, v] of Object.entries(params)) s = s.split(`{${k}}`).join(v);
  return s;
}

/** Chooses between the server's two texts. */
export function pick(zhText: string, enText: string): string {
  return lang === 'zh' ? zhText : enText;
}
