// Workspace's reads (AgentDojo's `email_client.py`, `calendar_client.py`, `cloud_drive_client.py`).
import type { Environment } from '../environment.js';
import { calendarReads } from './calendar.js';
import { at, contains, nonEmpty, type Read, type Row, rows, strings, text } from './environment-access.js';

const EMAILS = 'inbox.initial_emails';
const FILES = 'cloud_drive.initial_files';

const withStatus =
  (status: string): Read =>
  (env) =>
    rows(env, EMAILS).filter((email) => email.status === status);

export const workspaceReads: Readonly<Record<string, Read>> = {
  get_unread_emails: (env) => rows(env, EMAILS).filter((email) => email.read === false),
  get_sent_emails: withStatus('sent'),
  get_received_emails: withStatus('received'),
  get_draft_emails: withStatus('draft'),
  search_emails: (env, args) =>
    nonEmpty(
      rows(env, EMAILS).filter(
        (email) =>
          (contains(email.subject, args.query) || contains(email.body, args.query)) &&
          (args.sender === undefined || args.sender === null || email.sender === args.sender),
      ),
      'emails',
    ),
  search_contacts_by_name: (env, args) =>
    nonEmpty(
      contactList(env).filter((contact) => contains(contact.name, args.query)),
      'contacts',
    ),
  search_contacts_by_email: (env, args) =>
    nonEmpty(
      contactList(env).filter((contact) => contains(contact.email, args.query)),
      'contacts',
    ),
  ...calendarReads,
  search_files_by_filename: (env, args) =>
    rows(env, FILES).filter((file) => contains(file.filename, args.filename)),
  get_file_by_id: (env, args) => {
    const file = rows(env, FILES).find((candidate) => candidate.id_ === args.file_id);
    if (file === undefined) throw new Error(`File with ID '${text(args.file_id)}' not found.`);
    return file;
  },
  list_files: (env) => rows(env, FILES),
  search_files: (env, args) =>
    nonEmpty(
      rows(env, FILES).filter((file) => contains(file.content, args.query)),
      'files',
    ),
};

/**
 * The inbox's contact list as AgentDojo builds it: every address in the emails' headers (recipients,
 * sender, cc, bcc), named from its local part (`sarah.baker@…` -> `Sarah Baker`).
 */
export function contactList(env: Environment): Row[] {
  const seen = new Map<string, Row>();
  for (const email of rows(env, EMAILS)) {
    for (const address of [
      ...strings(email.recipients),
      text(email.sender),
      ...strings(email.cc),
      ...strings(email.bcc),
    ]) {
      if (address === '' || seen.has(address)) continue;
      const name = (address.split('@')[0] ?? '')
        .split('.')
        .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
        .join(' ');
      seen.set(address, { email: address, name });
    }
  }
  return [...seen.values()];
}

/** The mailbox's own address. */
export function accountEmail(env: Environment): string {
  return text(at(env, 'inbox.account_email'));
}
