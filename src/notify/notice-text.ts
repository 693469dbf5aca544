import type { ConfirmationStatus } from '../confirmation.js';
import { gradeWords } from '../messages/grade-words.js';
import type { Locale } from '../messages/index.js';
import { quorumSentence } from '../messages/quorum-words.js';
import type { NoticeData } from './notice-data.js';
import type { NoticeKind } from './notifier.js';

/** The words every channel uses to tell a person about a confirmation, in one language. */
export interface NoticeWords {
  /** The one line a person sees first: subject, Slack header, title of the mail. */
  headline(kind: NoticeKind, title: string, status: ConfirmationStatus): string;
  /** One sentence saying why this arrived; an `escalated` one says how long it has waited (`afterMs`). */
  intro(kind: NoticeKind, afterMs?: number): string;
  /** The language of the words, as the shared ones (the quorum sentence) are said in. */
  readonly lang: Locale;
  readonly status: Readonly<Record<ConfirmationStatus, string>>;
  readonly labels: {
    readonly tool: string;
    readonly askedBy: string;
    readonly expires: string;
    readonly status: string;
    readonly confirmation: string;
    readonly payload: string;
    readonly open: string;
    /** The button of a personal one-time approval link. */
    readonly openOnce: string;
    readonly unknownActor: string;
    /** The asker's note: why it wants this sent. */
    readonly why: string;
    /** The asker's links, for reading more. */
    readonly links: string;
    /** The app's own reference. */
    readonly ref: string;
    /** The row that flags another pending one with the same payload. */
    readonly alike: string;
    /** Who decided (a decided notice). */
    readonly decidedBy: string;
    /** What they said (a reject's reason, a failure). */
    readonly decisionNote: string;
  };
}

type Units = readonly [
  minute: (n: number) => string,
  hour: (n: number) => string,
  day: (n: number) => string,
];
const EN_UNITS: Units = [
  (n) => `${n} minute${n === 1 ? '' : 's'}`,
  (n) => `${n} hour${n === 1 ? '' : 's'}`,
  (n) => `${n} day${n === 1 ? '' : 's'}`,
];
const ZH_UNITS: Units = [(n) => `${n} 分钟`, (n) => `${n} 小时`, (n) => `${n} 天`];

/** An escalation's `afterMs` as people say it: whole minutes, hours past two, days past two. */
function waited(ms: number, [minutes, hours, days]: Units): string {
  const m = Math.max(1, Math.round(ms / 60_000));
  if (m < 120) return minutes(m);
  return m < 48 * 60 ? hours(Math.round(m / 60)) : days(Math.round(m / 1_440));
}

const en: NoticeWords = {
  headline: (kind, title, status) =>
    kind === 'created'
      ? `Approval needed: ${title}`
      : kind === 'reminder'
        ? `Reminder: ${title} is still waiting for approval`
        : kind === 'escalated'
          ? `Escalated: ${title} is still waiting for approval`
          : `${title}: ${en.status[status]}`,
  intro: (kind, afterMs = 0) =>
    kind === 'created'
      ? 'A send is waiting for a person to approve or reject it.'
      : kind === 'reminder'
        ? 'This send is still waiting for approval and expires soon.'
        : kind === 'escalated'
          ? `Still waiting after ${waited(afterMs, EN_UNITS)} — escalated to you.`
          : 'The send you asked for has been decided.',
  lang: 'en',
  status: {
    pending: 'waiting for approval',
    scheduled: 'approved, sending soon (can still be cancelled)',
    delivering: 'being sent',
    delivered: gradeWords('en', 'send').done,
    failed: 'failed',
    rejected: 'rejected',
    expired: 'expired',
    cancelled: 'cancelled before sending',
    unknown: 'outcome unknown',
  },
  labels: {
    tool: 'Tool',
    askedBy: 'Asked by',
    expires: 'Expires',
    status: 'Status',
    confirmation: 'Confirmation',
    payload: 'Payload',
    open: 'Open in the console',
    openOnce: 'Review and decide (a personal link that works once)',
    unknownActor: 'unknown',
    why: 'Why',
    links: 'Links',
    ref: 'Reference',
    alike: 'Check',
    decidedBy: 'Decided by',
    decisionNote: 'Note',
  },
};

const zhCN: NoticeWords = {
  headline: (kind, title, status) =>
    kind === 'created'
      ? `待审批：${title}`
      : kind === 'reminder'
        ? `提醒：${title} 仍在等待审批`
        : kind === 'escalated'
          ? `升级：${title} 仍在等待审批`
          : `${title}：${zhCN.status[status]}`,
  intro: (kind, afterMs = 0) =>
    kind === 'created'
      ? '有一项发送正在等待人工批准或拒绝。'
      : kind === 'reminder'
        ? '这项发送仍在等待审批，即将过期。'
        : kind === 'escalated'
          ? `已等待 ${waited(afterMs, ZH_UNITS)} 仍无人审批，现升级给你。`
          : '你发起的发送已有结果。',
  lang: 'zh-CN',
  status: {
    pending: '等待审批',
    scheduled: '已批准，即将发送（仍可撤销）',
    delivering: '发送中',
    delivered: gradeWords('zh-CN', 'send').done,
    failed: '发送失败',
    rejected: '已拒绝',
    expired: '已过期',
    cancelled: '已在发送前撤销',
    unknown: '结果未知',
  },
  labels: {
    tool: '工具',
    askedBy: '发起人',
    expires: '过期时间',
    status: '状态',
    confirmation: '确认编号',
    payload: '内容',
    open: '在控制台中打开',
    openOnce: '查看并决定（仅限本人、只能使用一次的链接）',
    unknownActor: '未知',
    why: '原因',
    links: '相关链接',
    ref: '引用编号',
    alike: '请核对',
    decidedBy: '决定人',
    decisionNote: '说明',
  },
};

/** What a notice about a write says instead: approving applies a change, nothing is sent. */
const enWrite: NoticeWords = {
  ...en,
  headline: (kind, title, status) =>
    kind === 'decided' ? `${title}: ${enWrite.status[status]}` : en.headline(kind, title, status),
  intro: (kind, afterMs) =>
    kind === 'created'
      ? 'A change is waiting for a person to approve or reject it.'
      : kind === 'reminder'
        ? 'This change is still waiting for approval and expires soon.'
        : kind === 'decided'
          ? 'The change you asked for has been decided.'
          : en.intro(kind, afterMs),
  status: {
    ...en.status,
    scheduled: 'approved, applying soon (can still be cancelled)',
    delivering: 'being applied',
    delivered: gradeWords('en', 'write').done,
    cancelled: 'cancelled before it was applied',
  },
  labels: { ...en.labels, payload: 'Change' },
};

const zhCNWrite: NoticeWords = {
  ...zhCN,
  headline: (kind, title, status) =>
    kind === 'decided' ? `${title}：${zhCNWrite.status[status]}` : zhCN.headline(kind, title, status),
  intro: (kind, afterMs) =>
    kind === 'created'
      ? '有一项更改正在等待人工批准或拒绝。'
      : kind === 'reminder'
        ? '这项更改仍在等待审批，即将过期。'
        : kind === 'decided'
          ? '你发起的更改已有结果。'
          : zhCN.intro(kind, afterMs),
  status: {
    ...zhCN.status,
    scheduled: '已批准，即将执行（仍可撤销）',
    delivering: '执行中',
    delivered: gradeWords('zh-CN', 'write').done,
    failed: '执行失败',
    cancelled: '已在执行前撤销',
  },
  labels: { ...zhCN.labels, payload: '更改内容' },
};

const words: Readonly<Record<Locale, NoticeWords>> = { en, 'zh-CN': zhCN };
const writeWords: Readonly<Record<Locale, NoticeWords>> = { en: enWrite, 'zh-CN': zhCNWrite };

/**
 * The words for `locale`, English for anything else; for a write (`sideEffect: 'write'`) those of a
 * change applied, never of a send.
 */
export function noticeWords(locale: unknown, sideEffect?: 'send' | 'write'): NoticeWords {
  const byLocale = sideEffect === 'write' ? writeWords : words;
  return locale === 'zh-CN' ? byLocale['zh-CN'] : byLocale.en;
}

/**
 * The rows every channel adds after its own: the asker's note and reference, and for a decided notice
 * who decided and what they said. Links are apart: each channel makes them links its own way.
 */
export function aboutRows(
  data: {
    readonly confirmation: {
      readonly note?: string;
      readonly ref?: string;
      readonly alike?: { readonly text: string };
    };
    readonly decision?: { readonly by?: string; readonly note?: string };
  },
  words: NoticeWords,
): [string, string][] {
  const { note, ref } = data.confirmation;
  const rows: [string, string][] = [];
  if (note !== undefined) rows.push([words.labels.why, note]);
  if (ref !== undefined) rows.push([words.labels.ref, ref]);
  const { alike } = data.confirmation;
  if (alike !== undefined) rows.push([words.labels.alike, alike.text]);
  if (data.decision?.by !== undefined) rows.push([words.labels.decidedBy, data.decision.by]);
  if (data.decision?.note !== undefined) rows.push([words.labels.decisionNote, data.decision.note]);
  return rows;
}

/** `2026-12-01 14:30 UTC`: the same in every language and mail client; an unreadable time is shown as given. */
export function formatUtc(iso: string): string {
  const time = new Date(iso);
  if (Number.isNaN(time.getTime())) return String(iso);
  return `${time.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * What the tool's rules ask of the approvers of a send still waiting — "Needs 2 approvals from
 * finance — 1 of 2 approved", the quorum sentence every surface says — or `undefined` (one plain
 * approval, or already decided).
 */
export function requirementLine(
  data: Pick<NoticeData, 'kind' | 'confirmation'>,
  locale: Locale,
): string | undefined {
  const { requires, approved = 0, status } = data.confirmation;
  if (requires === undefined || data.kind === 'decided' || status !== 'pending') return undefined;
  return quorumSentence(locale, { needed: requires.approvals, flags: requires.approverFlags, approved });
}
