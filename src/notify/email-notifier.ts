import { type OriginsText, originsPlainLines, originsText } from '../origins/origin-words.js';
import { describeThrown } from '../util/describe-thrown.js';
import { escapeHtml } from '../util/escape-html.js';
import { noticeData, payloadText, webLink } from './notice-data.js';
import { aboutRows, formatUtc, noticeWords, requirementLine } from './notice-text.js';
import type { ApprovalNotice, Notifier } from './notifier.js';
import { type AttemptOutcome, invalidOption, sendWithRetries } from './retry-policy.js';

/** The mail `emailNotifier` hands to `sendMail`: the nodemailer message fields it sets. */
export interface EmailMessage {
  readonly from: string;
  readonly to: string | string[];
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/**
 * A nodemailer transport (`nodemailer.createTransport(…)`), or anything with its `sendMail`; declared
 * by shape, so the entry's types need neither nodemailer's nor Node's (a Worker has neither).
 */
export interface EmailTransport {
  sendMail(mail: EmailMessage): unknown;
}

/** Who gets a notice: fixed addresses, or chosen per notice (for `decided`, the asker's address). */
export type EmailRecipients =
  | string
  | readonly string[]
  | ((notice: ApprovalNotice) => string | readonly string[] | undefined);

/** How to send approval emails. */
export interface EmailNotifierOptions {
  /** The app's nodemailer transport; this library never loads nodemailer itself. */
  readonly transport: EmailTransport;
  /** The From address (`Approvals <approvals@example.com>`). */
  readonly from: string;
  /**
   * Who gets each notice. A function may pick by what the tool's rules ask
   * (`notice.confirmation.requires?.approverFlags`), so only those who may approve are told.
   */
  readonly to: EmailRecipients;
  /** Show the payload in the mail when the notice carries one. Default `false`. */
  readonly includePayload?: boolean;
  /** Put before every subject, e.g. `[Support desk]`. */
  readonly subjectPrefix?: string;
  /**
   * Email approvals, for approvers without a console session: each recipient of a `created` or
   * `reminder` notice gets a mail of their own whose link is the one this returns for them — an
   * approvals console's `createApprovalLink(notice.confirmation.id, { approver, ttlMs })`, or a URL.
   * When no link can be made (`{ ok: false }`, `undefined`, a throw), that mail has the console link.
   */
  readonly approvalLink?: (
    notice: ApprovalNotice,
    recipient: string,
  ) => ApprovalLinkAnswer | Promise<ApprovalLinkAnswer>;
}

/** What `approvalLink` answers: a URL, `createApprovalLink`'s result, or nothing. */
export type ApprovalLinkAnswer = string | { readonly ok: boolean; readonly url?: string } | undefined;

/** The mail for one notice: subject, plain text and HTML. */
export interface EmailContent {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/**
 * A channel that emails each notice through the nodemailer transport the app supplies (`nodemailer` is
 * an optional peer: this library only uses its types), in plain text and HTML, in English or Chinese
 * per `notice.locale`, with the link to that confirmation. No payload unless `includePayload`. One
 * attempt per notice: the transport does its own retrying. A notice with nobody to send it to is not
 * sent and comes back `{ ok: false }`.
 *
 * @example
 * ```ts
 * import nodemailer from 'nodemailer';
 * import { emailNotifier } from 'graded-tools/notify';
 *
 * const email = emailNotifier({
 *   transport: nodemailer.createTransport({ host: 'smtp.example', port: 587 }),
 *   from: 'Approvals <approvals@example.com>',
 *   // Approvers hear of new and waiting sends; the person who asked hears how it was decided.
 *   to: (notice) => (notice.kind === 'decided' ? notice.recipient : 'approvers@example.com'),
 *   subjectPrefix: '[Support desk]',
 * });
 * console.log(email.channel); // 'email'
 * ```
 */
export function emailNotifier(options: EmailNotifierOptions): Notifier {
  const { transport, from, to } = options;
  if (typeof transport?.sendMail !== 'function')
    throw invalidOption('emailNotifier: `transport` must be a nodemailer transport (with `sendMail`).');
  if (typeof from !== 'string' || from.trim() === '')
    throw invalidOption('emailNotifier: `from` must be an address.');
  if (typeof to !== 'function' && recipientsOf(to).length === 0)
    throw invalidOption('emailNotifier: `to` must be an address, a list of them, or a function.');
  const includePayload = options.includePayload === true;
  const prefix = options.subjectPrefix?.trim() ?? '';
  const { approvalLink } = options;
  if (approvalLink !== undefined && typeof approvalLink !== 'function')
    throw invalidOption('emailNotifier: `approvalLink` must be a function `(notice, recipient) => link`.');
  return {
    channel: 'email',
    send(notice, sendOptions) {
      return sendWithRetries({
        channel: 'email',
        noticeId: String(notice?.id),
        policy: { retries: 0, backoffMs: 0 },
        options: sendOptions,
        attempt: async (signal) => {
          const recipients = recipientsOf(typeof to === 'function' ? to(notice) : to);
          if (recipients.length === 0)
            return { ok: false, error: 'no recipient for this notice', retry: false };
          const settings = { includePayload, subjectPrefix: prefix };
          if (approvalLink === undefined || notice.kind === 'decided')
            return mailOnce(transport, { from, to: recipients, ...emailContent(notice, settings) }, signal);
          // A personal link each: one mail per recipient, so nobody receives another person's link.
          const failed: string[] = [];
          for (const recipient of recipients) {
            const link = await personalLink(approvalLink, notice, recipient);
            const content = emailContent(notice, { ...settings, ...(link === undefined ? {} : { link }) });
            const sent = await mailOnce(transport, { from, to: recipient, ...content }, signal);
            if (!sent.ok) failed.push(`${recipient}: ${sent.error}`);
          }
          return failed.length === 0 ? { ok: true } : { ok: false, error: failed.join('; '), retry: false };
        },
      });
    },
  };
}

/** One of the asker's links, checked to be http(s). */
interface AskerLink {
  readonly label: string;
  readonly href: string;
}

/** The subject, text and HTML of the mail for one notice; every value in the HTML is escaped. */
export function emailContent(
  notice: ApprovalNotice,
  options: {
    readonly includePayload: boolean;
    readonly subjectPrefix?: string;
    /** A personal one-time approval link, shown instead of the console link. */
    readonly link?: string;
  },
): EmailContent {
  const data = noticeData(notice, options.includePayload);
  const words = noticeWords(notice.locale, notice.confirmation.sideEffect);
  const { confirmation: c } = data;
  const headline = words.headline(data.kind, c.title, c.status);
  const rows: [string, string][] = [
    [words.labels.tool, `${c.title} (${c.tool})`],
    [words.labels.askedBy, c.actor ?? words.labels.unknownActor],
    [words.labels.expires, formatUtc(c.expiresAt)],
    [words.labels.status, words.status[c.status] ?? String(c.status)],
    [words.labels.confirmation, c.id],
    ...aboutRows(data, words),
  ];
  // Only http(s) links become links; the label is text.
  const links = (c.links ?? []).flatMap(({ label, url }) => {
    const href = webLink(url);
    return href === undefined ? [] : [{ label, href }];
  });
  const personal = webLink(options.link);
  const link = personal ?? webLink(data.link);
  const labels = personal === undefined ? words.labels : { ...words.labels, open: words.labels.openOnce };
  const payload = payloadText(data, 20_000);
  const prefix = options.subjectPrefix ?? '';
  // Why it arrived, and what the tool's rules ask of the approvers ("Needs 2 approvals from finance").
  const needs = requirementLine(data, words.lang);
  const why = words.intro(data.kind, data.escalation?.afterMs);
  const intro = needs === undefined ? [why] : [why, needs];
  const parts: MailParts = {
    headline,
    intro,
    rows,
    origins: originsText(c, notice.locale),
    link,
    labels,
    payload,
    links,
  };
  return {
    subject: oneLine(prefix === '' ? headline : `${prefix} ${headline}`),
    text: textBody(parts),
    html: htmlBody(notice.locale, parts),
  };
}

/** What a mail says, in the order it says it. */
interface MailParts {
  readonly headline: string;
  readonly intro: readonly string[];
  readonly rows: readonly [string, string][];
  /** Where each destination came from, when the confirmation was asked within an agent run. */
  readonly origins: OriginsText | undefined;
  readonly link: string | undefined;
  readonly labels: { readonly open: string; readonly payload: string; readonly links: string };
  readonly payload: string | undefined;
  readonly links: readonly AskerLink[];
}

function textBody(m: MailParts): string {
  const parts = [
    m.headline,
    m.intro.join('\n'),
    m.rows.map(([label, value]) => `${label}: ${value}`).join('\n'),
  ];
  if (m.origins !== undefined) {
    const [heading = '', ...said] = originsPlainLines(m.origins);
    const { caution } = m.origins;
    parts.push(
      [heading, ...said.map((line) => `- ${line}`), ...(caution === undefined ? [] : [caution])].join('\n'),
    );
  }
  if (m.links.length > 0)
    parts.push(`${m.labels.links}:\n${m.links.map(({ label, href }) => `- ${label}: ${href}`).join('\n')}`);
  if (m.link !== undefined) parts.push(`${m.labels.open}: ${m.link}`);
  if (m.payload !== undefined) parts.push(`${m.labels.payload}:\n${m.payload}`);
  return `${parts.join('\n\n')}\n`;
}

function htmlBody(locale: unknown, m: MailParts): string {
  const lang = locale === 'zh-CN' ? 'zh-CN' : 'en';
  const table = m.rows
    .map(
      ([label, value]) =>
        `<tr><th align="left" style="padding:2px 12px 2px 0">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`,
    )
    .join('');
  return [
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${escapeHtml(m.headline)}</title></head>`,
    '<body style="font-family:sans-serif">',
    `<h2>${escapeHtml(m.headline)}</h2>`,
    m.intro.map((line) => `<p>${escapeHtml(line)}</p>`).join(''),
    `<table>${table}</table>`,
    m.origins === undefined ? '' : originsHtml(m.origins),
    m.links.length === 0
      ? ''
      : `<p>${escapeHtml(m.labels.links)}:</p><ul>${m.links.map(({ label, href }) => `<li><a href="${escapeHtml(href)}" rel="noopener noreferrer">${escapeHtml(label)}</a></li>`).join('')}</ul>`,
    m.link === undefined ? '' : `<p><a href="${escapeHtml(m.link)}">${escapeHtml(m.labels.open)}</a></p>`,
    m.payload === undefined
      ? ''
      : `<h3>${escapeHtml(m.labels.payload)}</h3><pre style="white-space:pre-wrap">${escapeHtml(m.payload)}</pre>`,
    '</body></html>',
  ].join('');
}

/** The origins block of the HTML mail: an unvouched line starts with its mark in bold words. */
function originsHtml({ heading, check, caution, lines, notRecorded }: OriginsText): string {
  if (notRecorded !== undefined)
    return `<p><strong>${escapeHtml(heading)}:</strong> ${escapeHtml(notRecorded)}</p>`;
  const items = lines
    .map((line) => {
      const said = `${escapeHtml(line.field)}: ${escapeHtml(line.text)}`;
      return line.unvouched
        ? `<li><strong>&#9888; ${escapeHtml(check)}</strong> — ${said}</li>`
        : `<li>${said}</li>`;
    })
    .join('');
  return `<h3>${escapeHtml(heading)}</h3><ul>${items}</ul>${caution === undefined ? '' : `<p>${escapeHtml(caution)}</p>`}`;
}

async function mailOnce(
  transport: EmailTransport,
  mail: EmailMessage,
  signal: AbortSignal | undefined,
): Promise<AttemptOutcome> {
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<AttemptOutcome>((resolve) => {
    onAbort = () => resolve({ ok: false, error: 'aborted', retry: false });
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
  const sent = Promise.resolve()
    .then(() => transport.sendMail(mail))
    .then(
      (): AttemptOutcome => ({ ok: true }),
      (error: unknown): AttemptOutcome => {
        const code = (error as { responseCode?: unknown } | null)?.responseCode;
        return {
          ok: false,
          error: describeThrown(error),
          retry: false,
          ...(typeof code === 'number' ? { status: code } : {}),
        };
      },
    );
  try {
    return await Promise.race([sent, aborted]);
  } finally {
    if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
  }
}

/** The recipient's own link, or `undefined` when none could be made (the mail then has the console's). */
async function personalLink(
  approvalLink: NonNullable<EmailNotifierOptions['approvalLink']>,
  notice: ApprovalNotice,
  recipient: string,
): Promise<string | undefined> {
  try {
    const answer = await approvalLink(notice, recipient);
    if (typeof answer === 'string') return answer;
    return answer?.ok === true && typeof answer.url === 'string' ? answer.url : undefined;
  } catch {
    return undefined;
  }
}

function recipientsOf(value: unknown): string[] {
  const list = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
  return list.filter((address): address is string => typeof address === 'string' && address.trim() !== '');
}

/** A subject is one header line, whatever a tool's title holds. */
function oneLine(text: string): string {
  return text.replace(/[\r\n\t]+/g, ' ').trim();
}
