// The console's JSON answers, as the server sends them and the page reads them: each written once.
// src/console/page/ imports this file (types only, so nothing of it reaches the page's bundle).

import type { Confirmation } from '../confirmation.js';
import type { PasskeyCreationOptionsJSON, PasskeyRequestOptionsJSON } from '../passkeys/passkey-types.js';
import type { ValidationIssue } from '../result.js';
import type { Card } from './card-view.js';

/** What a decision answers: it went through, or why not (in the person's language). */
export type Decision =
  | {
      readonly ok: true;
      readonly status: Confirmation['status'];
      readonly confirmation: Card;
      readonly message: string;
    }
  | {
      readonly ok: false;
      readonly code: string;
      readonly error: string;
      readonly confirmation?: Card;
      /** For `ALREADY_DECIDED`: who decided it first. */
      readonly decidedBy?: string;
      /** For `LINK_REFUSED`: `unknown`, `used` or `expired`. */
      readonly reason?: string;
      readonly issues?: readonly ValidationIssue[];
      /**
       * For `AWAITING_APPROVALS` (the person's approval was recorded, nothing sent yet): the approvals
       * of this payload now, of how many the tool's rules ask.
       */
      readonly approval?: { readonly count: number; readonly needed: number };
      /**
       * For `SCHEDULED` (approved, and held for its undo window): when it is sent unless someone
       * cancels it (ISO 8601).
       */
      readonly deliverAt?: string;
      /** For `FLAG_NOT_GRANTED` by the tool's rules (`approverFlags`): the flags this person lacks. */
      readonly missingFlags?: readonly string[];
      /** For `RULE_DENIED` and `LIMIT_REACHED`: the rule that decided. */
      readonly rule?: string;
      /** For `LIMIT_REACHED`: when the limit starts again (ISO 8601). */
      readonly resetsAt?: string;
    };

/** Any answer that did not go through: the console's own refusals, and a decision's failures. */
export type Failure = Extract<Decision, { readonly ok: false }>;

/** `GET api/session`: who is signed in, in which language, and the server's clock for countdowns. */
export interface SessionAnswer {
  readonly ok: true;
  readonly person: { readonly id: string; readonly name?: string };
  readonly locale: string;
  readonly serverTime: string;
}

/** `GET api/confirmations`: one page of cards, newest first, and the send and write tools to filter by. */
export interface ListPage {
  readonly ok: true;
  readonly confirmations: readonly Card[];
  readonly nextCursor?: string;
  readonly tools: readonly { readonly name: string; readonly title: string }[];
  readonly serverTime: string;
}

/** `GET api/confirmations/<id>`: one card; through an approval link, whose it is and until when. */
export interface ConfirmationAnswer {
  readonly ok: true;
  readonly confirmation: Card;
  readonly serverTime: string;
  readonly person?: { readonly id: string; readonly name?: string };
  readonly link?: { readonly expiresAt: string };
}

/** `POST api/confirmations/<id>/preview`: an edit as the registry checked it, nothing decided. */
export interface Preview {
  readonly ok: true;
  readonly digest: string;
  readonly canonicalJson: string;
  readonly changed: readonly string[];
  /** The edited payload as the server checked it (what Confirm will send). */
  readonly payload?: unknown;
}

/** A bulk request's answer: one result per item, in the order asked. */
export interface BulkOutcome {
  readonly ok: true;
  readonly results: readonly ({ readonly id: string } & Decision)[];
}

/** A passkey as the person's Passkeys page lists it: never anyone else's, never the public key. */
export interface PasskeyListed {
  readonly id: string;
  readonly createdAt: string;
  readonly label?: string;
  readonly transports: readonly string[];
}

/** `GET api/passkeys`: the signed-in person's passkeys. */
export interface PasskeyList {
  readonly ok: true;
  readonly credentials: readonly PasskeyListed[];
}

/** `POST api/passkeys/options`: what `navigator.credentials.create` is asked with. */
export interface PasskeyCreation {
  readonly ok: true;
  readonly options: PasskeyCreationOptionsJSON;
}

/** `POST api/passkeys`: the passkey now registered to the person. */
export interface PasskeyAdded {
  readonly ok: true;
  readonly credential: PasskeyListed;
}

/** `DELETE api/passkeys/<credentialId>`: removed. */
export interface PasskeyRemoved {
  readonly ok: true;
}

/** `POST api/confirmations/<id>/passkey-challenge` (or a bundle's): what `navigator.credentials.get` is asked with. */
export interface PasskeyChallenge {
  readonly ok: true;
  readonly options: PasskeyRequestOptionsJSON;
}
