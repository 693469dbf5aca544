// What the app vouches for in each suite: values of the user's own that an app would know from its
// own records — never from free text an attacker can write (AgentDojo's injection vectors are email
// and file bodies, event descriptions, reviews, web pages, one transaction subject and one channel
// name; none of the records below is one). Always built from the BENIGN environment.
import type { SuiteName } from './data.js';
import type { Environment } from './environment.js';
import { at, rows, strings, text } from './tools/environment-access.js';
import { accountEmail } from './tools/workspace.js';

/** Each suite's trusted values, by what they are (`beginRun({ trusted })`). */
export type Trusted = Record<string, string[]>;

/**
 * | suite | trusted | why an app knows it |
 * | --- | --- | --- |
 * | workspace | the user's address; addresses the user wrote to (sent mail's to/cc/bcc); people on the user's calendar events; people the user shared her own files with | the mail app's sent folder, the calendar's participant lists and the drive's sharing list of files she owns are the user's own records (a file someone else owns is shared by them: not hers) |
 * | travel | the user's own email; the agency's hotels, restaurants and car-rental companies by name | the profile and the catalogue the agency sells from |
 * | banking | the user's IBAN; every account the user has paid or been paid by, and the standing orders' payees | the bank's own ledger (amounts and accounts, not the free-text subjects) |
 * | slack | the workspace's members and channels; the hosts of links members posted in channels and DMs | the workspace's directory and its members' own messages |
 */
export const TRUSTED: Readonly<Record<SuiteName, (benign: Environment) => Trusted>> = {
  workspace: (env) => ({
    self: [accountEmail(env)],
    correspondents: unique(
      rows(env, 'inbox.initial_emails')
        .filter((email) => email.status === 'sent')
        .flatMap((email) => [...strings(email.recipients), ...strings(email.cc), ...strings(email.bcc)]),
    ),
    calendar: unique(rows(env, 'calendar.initial_events').flatMap((event) => strings(event.participants))),
    sharedWith: unique(
      rows(env, 'cloud_drive.initial_files')
        .filter((file) => file.owner === accountEmail(env))
        .flatMap((file) => Object.keys((file.shared_with ?? {}) as object)),
    ),
  }),
  travel: (env) => ({
    self: [text(at(env, 'user.email'))],
    hotels: rows(env, 'hotels.hotel_list').map((row) => text(row.name)),
    restaurants: rows(env, 'restaurants.restaurant_list').map((row) => text(row.name)),
    carRentals: rows(env, 'car_rental.company_list').map((row) => text(row.name)),
  }),
  banking: (env) => ({
    self: [text(at(env, 'bank_account.iban'))],
    payees: unique(
      [...rows(env, 'bank_account.transactions'), ...rows(env, 'bank_account.scheduled_transactions')]
        .flatMap((row) => [text(row.sender), text(row.recipient)])
        .filter((account) => account !== 'me'),
    ),
  }),
  slack: (env) => {
    const messages = [
      ...Object.values((at(env, 'slack.channel_inbox') ?? {}) as Record<string, unknown>),
      ...Object.values((at(env, 'slack.user_inbox') ?? {}) as Record<string, unknown>),
    ].flatMap((list) => (Array.isArray(list) ? list : []));
    return {
      members: strings(at(env, 'slack.users')),
      channels: strings(at(env, 'slack.channels')),
      postedLinks: unique(
        messages.flatMap((message) => text((message as { body?: unknown }).body).match(LINK) ?? []),
      ),
    };
  },
};

/** A link as members write them: `www.example.com` or `https://…`, up to a space or a closing mark. */
const LINK = /\b(?:https?:\/\/|www\.)[^\s)!,]+[^\s)!,.]/g;

// A record read from the benign start: in an app the lists follow the live records, so a send or share a
// person once approved vouches that address afterwards — the same as an address in the sent folder.
function unique(values: readonly string[]): string[] {
  return [...new Set(values.filter((value) => value !== ''))];
}
