import type { ConfirmationLink } from '../confirmation.js';
import { noteProblem } from '../policy/labels.js';
import { describeThrown } from '../util/describe-thrown.js';

/** What an asker may attach to a send for the approver: why, where to read more, its own reference. */
export interface Proposal {
  readonly note?: string;
  readonly links?: readonly ConfirmationLink[];
  readonly ref?: string;
}

/** Why a proposal's `note`, `links` or `ref` cannot be stored. */
export interface ProposalProblem {
  readonly problem: string;
}

const DIRECTION_OVERRIDE = /[\u202a-\u202e\u2066-\u2069]/u;
const MAX_LINKS = 10;
const MAX_LABEL_LENGTH = 200;
const MAX_URL_LENGTH = 2_048;
const MAX_REF_LENGTH = 256;

/**
 * Reads `note`, `links` and `ref` once, from an options object already known to be one. They are shown
 * to the person deciding, so a link is http(s) without userinfo (`https://desk.example@evil.test` reads
 * as the desk but goes elsewhere), and no text hides control or direction-override characters.
 */
export function readProposal(options: unknown): Proposal | ProposalProblem {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object')
    return { problem: `the options must be an object (got ${typeof options})` };
  try {
    return readFields(options as Readonly<Record<string, unknown>>);
  } catch (error) {
    return { problem: `the options could not be read: ${describeThrown(error).slice(0, 200)}` };
  }
}

function readFields(options: Readonly<Record<string, unknown>>): Proposal | ProposalProblem {
  const { note, links, ref } = options;
  const noteIssue = noteProblem(note, 'note');
  if (noteIssue !== undefined) return { problem: noteIssue };
  // A note is shown to the person deciding: an override could make it read as something it does not say.
  if (typeof note === 'string' && DIRECTION_OVERRIDE.test(note))
    return { problem: '`note` holds direction-override characters' };
  const read = readLinks(links);
  if ('problem' in read) return read;
  const refIssue = refProblem(ref);
  if (refIssue !== undefined) return { problem: refIssue };
  return {
    ...(note === undefined || note === '' ? {} : { note: note as string }),
    ...(read.links.length === 0 ? {} : { links: read.links }),
    ...(ref === undefined ? {} : { ref: ref as string }),
  };
}

function readLinks(value: unknown): { links: readonly ConfirmationLink[] } | ProposalProblem {
  if (value === undefined) return { links: [] };
  if (!Array.isArray(value)) return { problem: '`links` must be an array of { label, url }' };
  if (value.length > MAX_LINKS) return { problem: `\`links\` holds more than ${MAX_LINKS} links` };
  const links: ConfirmationLink[] = [];
  for (const [i, item] of value.entries()) {
    if (typeof item !== 'object' || item === null)
      return { problem: `\`links[${i}]\` must be { label, url }` };
    const { label, url } = item as { label?: unknown; url?: unknown };
    const labelIssue = labelProblem(label, `links[${i}].label`);
    if (labelIssue !== undefined) return { problem: labelIssue };
    const urlIssue = urlProblem(url, `links[${i}].url`);
    if (urlIssue !== undefined) return { problem: urlIssue };
    links.push(Object.freeze({ label: label as string, url: url as string }));
  }
  return { links: Object.freeze(links) };
}

function labelProblem(value: unknown, option: string): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return `\`${option}\` must be a non-empty string`;
  if (value.length > MAX_LABEL_LENGTH) return `\`${option}\` is longer than ${MAX_LABEL_LENGTH} characters`;
  return singleLineProblem(value, option);
}

function urlProblem(value: unknown, option: string): string | undefined {
  if (typeof value !== 'string') return `\`${option}\` must be a string`;
  if (value.length > MAX_URL_LENGTH) return `\`${option}\` is longer than ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `\`${option}\` is not an absolute URL`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `\`${option}\` must be an http(s) URL`;
  if (url.username !== '' || url.password !== '') return `\`${option}\` may not hold a user name or password`;
  return singleLineProblem(value, option);
}

function refProblem(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') return '`ref` must be a non-empty string';
  if (value.length > MAX_REF_LENGTH) return `\`ref\` is longer than ${MAX_REF_LENGTH} characters`;
  return singleLineProblem(value, 'ref');
}

/** One line of text: no control, direction-override or invisible format characters. */
function singleLineProblem(value: string, option: string): string | undefined {
  // Controls, bidi overrides and isolates, and format characters: a label must read as what it holds.
  if (/[\p{Cc}\p{Cf}]/u.test(value)) return `\`${option}\` holds control or invisible characters`;
  return undefined;
}
