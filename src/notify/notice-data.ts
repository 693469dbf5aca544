import { readOrigins, readValueOrigins } from '../origins/read-origins.js';
import { isRecord } from '../util/is-record.js';
import { truncateText } from '../util/truncate.js';
import type { ApprovalNotice } from './notifier.js';

/** What a channel may pass on about a notice: the notice without its locale, the payload only if allowed. */
export type NoticeData = Omit<ApprovalNotice, 'locale'>;

/** What the tool's rules ask of the approvers, as a notice carries it. */
type Requirement = NonNullable<ApprovalNotice['confirmation']['requires']>;

/**
 * The fields of a notice a channel sends, copied one by one: a confirmation handed over whole (with its
 * `input` and `payload`) or a notice with extra fields leaks none of them, and the payload goes out only
 * when this channel allows it too.
 */
export function noticeData(notice: ApprovalNotice, includePayload: boolean): NoticeData {
  const { confirmation: c } = notice;
  const requires = requirementOf(c.requires);
  const approved = requires === undefined ? undefined : approvedSoFar(c.approved);
  const origins = readOrigins(c.origins, true);
  const originValues = readValueOrigins(c.originValues, true);
  const edited = names(c.editedFields).slice(0, 100);
  const alike = alikeOf(c.alike);
  return {
    id: notice.id,
    kind: notice.kind,
    confirmation: {
      id: c.id,
      tool: c.tool,
      title: c.title,
      ...(c.sideEffect === 'write' ? { sideEffect: 'write' as const } : {}),
      ...(c.actor === undefined ? {} : { actor: c.actor }),
      createdAt: c.createdAt,
      expiresAt: c.expiresAt,
      status: c.status,
      ...(c.note === undefined ? {} : { note: c.note }),
      ...(c.links === undefined ? {} : { links: c.links.map(({ label, url }) => ({ label, url })) }),
      ...(c.ref === undefined ? {} : { ref: c.ref }),
      ...(requires === undefined ? {} : { requires }),
      ...(approved === undefined ? {} : { approved }),
      ...(origins === undefined ? {} : { origins }),
      ...(originValues === undefined ? {} : { originValues }),
      ...(c.originsOutsideRun === true ? { originsOutsideRun: true as const } : {}),
      ...(edited.length === 0 ? {} : { editedFields: edited }),
      ...(alike === undefined ? {} : { alike }),
    },
    ...(notice.decision === undefined
      ? {}
      : {
          decision: {
            at: notice.decision.at,
            ...(notice.decision.by === undefined ? {} : { by: notice.decision.by }),
            ...(notice.decision.note === undefined ? {} : { note: notice.decision.note }),
          },
        }),
    ...(notice.escalation === undefined
      ? {}
      : { escalation: { step: notice.escalation.step, afterMs: notice.escalation.afterMs } }),
    ...(notice.link === undefined ? {} : { link: notice.link }),
    ...(includePayload && notice.payload !== undefined ? { payload: notice.payload } : {}),
    ...(notice.recipient === undefined ? {} : { recipient: notice.recipient }),
  };
}

/** The payload as indented JSON for a person to read, cut to `maxChars`; `undefined` when there is none. */
export function payloadText(data: NoticeData, maxChars: number): string | undefined {
  if (data.payload === undefined) return undefined;
  const json = JSON.stringify(data.payload, null, 2);
  if (json === undefined) return undefined;
  return truncateText(json, maxChars);
}

/**
 * The link, if it is an http(s) URL: only those become a button or an `href`, so a misconfigured
 * console URL can never turn into a `javascript:` link in an approver's mail client.
 */
export function webLink(link: string | undefined): string | undefined {
  if (link === undefined) return undefined;
  try {
    const { protocol } = new URL(link);
    return protocol === 'https:' || protocol === 'http:' ? link : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The confirmation's `requires`, copied as plain values: a whole number of approvals and lists of flag
 * and rule names. `undefined` when it asks no more than one plain approval, or cannot be read.
 */
function requirementOf(requires: unknown): Requirement | undefined {
  if (!isRecord(requires)) return undefined;
  const { approvals, approverFlags, rules } = requires;
  if (typeof approvals !== 'number' || !Number.isSafeInteger(approvals) || approvals < 1) return undefined;
  const flags = names(approverFlags);
  if (approvals === 1 && flags.length === 0) return undefined;
  return { approvals, approverFlags: flags, rules: names(rules) };
}

function names(list: unknown): string[] {
  return Array.isArray(list)
    ? list.filter((name): name is string => typeof name === 'string' && name !== '')
    : [];
}

/** How many approved so far: a whole number, or `undefined`. */
function approvedSoFar(approved: unknown): number | undefined {
  return typeof approved === 'number' && Number.isSafeInteger(approved) && approved >= 0
    ? approved
    : undefined;
}

/** A notice's `alike` flag, only when it has the shape the registry gives it (a notice may be hand-made). */
function alikeOf(value: unknown): { readonly id: string; readonly text: string } | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { id, text } = value as { id?: unknown; text?: unknown };
  return typeof id === 'string' && typeof text === 'string' ? { id, text: text.slice(0, 500) } : undefined;
}
