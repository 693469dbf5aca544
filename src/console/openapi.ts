import { CONFIRMATION_STATUSES } from '../confirmation.js';

// The console's JSON API as an OpenAPI 3.1 document: served at `GET <base>/api/openapi.json`, shown in
// the docs, and checked by the tests against the route table and against real responses.

/** A JSON Schema (2020-12, OpenAPI 3.1's dialect) or an OpenAPI object: plain JSON. */
type Json = { readonly [key: string]: unknown };

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const text: Json = { type: 'string' };
const time: Json = { type: 'string', format: 'date-time' };
const list = (items: Json): Json => ({ type: 'array', items });
/** An object with `required` and the rest optional; more properties may come in later versions. */
const object = (required: Readonly<Record<string, Json>>, optional: Readonly<Record<string, Json>> = {}) => ({
  type: 'object',
  required: Object.keys(required),
  properties: { ...required, ...optional },
});

const schemas: Readonly<Record<string, Json>> = {
  Status: { type: 'string', enum: [...CONFIRMATION_STATUSES] },
  Person: object({ id: text }, { name: text }),
  HistoryEntry: object(
    { at: time, status: ref('Status') },
    {
      by: text,
      note: text,
      approval: object({ count: { type: 'integer' }, needed: { type: 'integer' } }),
      edit: object({ fromDigest: text, toDigest: text, fields: list(text) }),
      escalated: object({ step: { type: 'integer' } }),
    },
  ),
  Offer: {
    description: 'The buttons the server offers this person on this card; the page shows no others.',
    ...object(
      {
        confirm: { type: 'boolean' },
        reject: { type: 'boolean' },
        edit: { type: 'boolean' },
        retry: { type: 'boolean' },
        markDelivered: { type: 'boolean' },
        cancel: { type: 'boolean' },
      },
      { whyNot: text, missingFlags: list(text) },
    ),
  },
  Quorum: object({ needed: { type: 'integer' }, flags: list(text), approvedBy: list(text) }),
  BundleCard: object({
    id: text,
    digest: text,
    status: { type: 'string', enum: ['pending', 'delivering', 'delivered', 'stopped', 'unknown'] },
    steps: list(ref('Card')),
    offer: object(
      { confirm: { type: 'boolean' }, reject: { type: 'boolean' } },
      { whyNot: text, missingFlags: list(text) },
    ),
  }),
  Card: {
    description:
      'A confirmation as the page shows it: the record, its title, what confirming does (`effect`), the payload field labels, the names of the people, the buttons offered (`offer`) and the canonical JSON whose `digest` a confirm names.',
    ...object(
      {
        id: text,
        tool: text,
        digest: {
          type: 'string',
          description: 'SHA-256 (hex) of the canonical JSON of `{ payload, tool }`.',
        },
        payload: { description: 'What will be sent, as JSON.' },
        input: {},
        status: ref('Status'),
        createdAt: time,
        expiresAt: time,
        updatedAt: time,
        attempt: { type: 'integer' },
        history: list(ref('HistoryEntry')),
        title: text,
        editable: list(text),
        canonicalJson: text,
        labels: { type: 'object', additionalProperties: text },
        names: { type: 'object', additionalProperties: text },
        offer: ref('Offer'),
      },
      {
        sideEffect: { type: 'string', enum: ['send', 'write'] },
        actor: text,
        scope: text,
        note: text,
        ref: text,
        links: list(object({ label: text, url: text })),
        deliverAt: time,
        result: {},
        error: text,
        requires: { type: 'object' },
        approvals: list(object({ by: text, at: time, digest: text })),
        origins: { type: 'object' },
        originValues: { type: 'object' },
        originsOutsideRun: { const: true },
        counted: list({ type: 'object' }),
        bundle: object({ id: text, index: { type: 'integer' }, size: { type: 'integer' }, digest: text }),
        effect: text,
        quorum: ref('Quorum'),
        holdMs: { type: 'integer' },
        originsText: object(
          { heading: text, check: text, lines: list({ type: 'object' }) },
          { caution: text, notRecorded: text },
        ),
        limitsText: list(text),
        bundleCard: ref('BundleCard'),
      },
    ),
  },
  Session: object({ ok: { const: true }, person: ref('Person'), locale: text, serverTime: time }),
  ListPage: object(
    {
      ok: { const: true },
      confirmations: list(ref('Card')),
      tools: list(object({ name: text, title: text })),
      serverTime: time,
    },
    { nextCursor: { type: 'string', description: 'Pass as `cursor` for the next page.' } },
  ),
  ConfirmationAnswer: object(
    { ok: { const: true }, confirmation: ref('Card'), serverTime: time },
    {
      person: { ...ref('Person'), description: 'Through an approval link: whose link it is.' },
      link: object({ expiresAt: time }),
    },
  ),
  Preview: object(
    { ok: { const: true }, digest: text, canonicalJson: text, changed: list(text) },
    { payload: { description: 'The edited payload as the server checked it: what Confirm sends.' } },
  ),
  Decided: object({ ok: { const: true }, status: ref('Status'), confirmation: ref('Card'), message: text }),
  Failure: {
    description:
      "Any answer that did not go through: the console's own refusals (`UNAUTHENTICATED`, `FORBIDDEN`, `FORBIDDEN_ORIGIN`, `FORBIDDEN_HOST`, `TOO_MANY_STREAMS`, `UNSUPPORTED_MEDIA_TYPE`, `PAYLOAD_TOO_LARGE`, `BAD_REQUEST`, `EDIT_NOT_PREVIEWED`, `NOT_FOUND`, `METHOD_NOT_ALLOWED`, `CONSOLE_CLOSED`, `CONSOLE_FAILED`) and the registry's codes (`ALREADY_DECIDED`, `EXPIRED`, `LINK_REFUSED` …). `error` is for people, in their language; `code` is for programs.",
    ...object(
      { ok: { const: false }, code: text, error: text },
      {
        confirmation: ref('Card'),
        decidedBy: { type: 'string', description: 'For `ALREADY_DECIDED`: who decided it first.' },
        reason: { type: 'string', description: 'For `LINK_REFUSED`: `unknown`, `used` or `expired`.' },
        issues: list(object({ path: text, message: text })),
        approval: object({ count: { type: 'integer' }, needed: { type: 'integer' } }),
        deliverAt: time,
        missingFlags: list(text),
        rule: text,
        resetsAt: time,
      },
    ),
  },
  Decision: { oneOf: [ref('Decided'), ref('Failure')] },
  BulkOutcome: object({
    ok: { const: true },
    results: list({ allOf: [object({ id: text }), ref('Decision')] }),
  }),
  ConfirmBody: object(
    { digest: { type: 'string', minLength: 1, description: 'The digest of the payload the person saw.' } },
    {
      payload: { description: "The person's edit (only the tool's `editable` fields may differ)." },
      editDigest: { type: 'string', description: 'With `payload`: the `digest` its preview answered.' },
      passkey: {
        type: 'object',
        description:
          "For a confirmation that `requires.passkey`: the person's assertion (`AuthenticationResponseJSON`) for the options `passkey-challenge` answered. Without it: `PASSKEY_REQUIRED`.",
      },
    },
  ),
  PasskeyListed: object(
    {
      id: { type: 'string', description: 'The credential id, base64url.' },
      createdAt: time,
      transports: list(text),
    },
    { label: text },
  ),
  PasskeyList: object({ ok: { const: true }, credentials: list(ref('PasskeyListed')) }),
  PasskeyCreation: object({
    ok: { const: true },
    options: {
      type: 'object',
      description: '`PublicKeyCredentialCreationOptionsJSON` for `navigator.credentials.create`.',
    },
  }),
  PasskeyAdded: object({ ok: { const: true }, credential: ref('PasskeyListed') }),
  PasskeyRemoved: object({ ok: { const: true } }),
  PasskeyChallenge: object({
    ok: { const: true },
    options: {
      type: 'object',
      description:
        "`PublicKeyCredentialRequestOptionsJSON` for `navigator.credentials.get`: a single-use challenge bound to this id, digest, the signed-in person and the decision, the person's credentials, user verification required.",
    },
  }),
  RegisterBody: object(
    {
      response: {
        type: 'object',
        description: 'What `navigator.credentials.create` gave (`RegistrationResponseJSON`).',
      },
    },
    { label: { type: 'string', maxLength: 100 } },
  ),
  ChallengeBody: object({
    digest: { type: 'string', minLength: 1, description: 'The (bundle) digest the person is shown.' },
  }),
  ReasonBody: object({}, { reason: text }),
  RetryBody: object({}, { digest: text }),
  NoteBody: object({}, { note: text }),
  PreviewBody: object({ payload: { description: 'The edited payload.' } }),
  ConfirmManyBody: object({
    items: { ...list(object({ id: text, digest: { type: 'string', minLength: 1 } })), maxItems: 100 },
  }),
  RejectManyBody: object({ items: { ...list(object({ id: text })), maxItems: 100 } }, { reason: text }),
};

const json = (schema: Json) => ({ 'application/json': { schema } });
const answer = (description: string, name: string) => ({ description, content: json(ref(name)) });
const failure = (description: string) => answer(description, 'Failure');
const other = (type: string, description: string) => ({
  description,
  content: { [type]: { schema: { type: 'string' } } },
});

const idParameter = {
  name: 'id',
  in: 'path',
  required: true,
  description: "A confirmation's id (a bundle's id under `/api/bundles/`).",
  schema: { type: 'string' },
};

/** The refusals any request to the JSON API may get before its handler runs. */
const refusals = {
  '401': failure('`UNAUTHENTICATED`: `authenticate` found nobody signed in.'),
  '403': failure(
    '`FORBIDDEN` (`authorize` denied, or an approval link asked for something else), `FORBIDDEN_HOST`, a gate of the tool …',
  ),
  '500': failure('`CONSOLE_FAILED`: nothing was decided; try again.'),
};
/** …and a POST's: its origin, content type, size and JSON. */
const postRefusals = {
  ...refusals,
  '400': failure('`BAD_REQUEST`: the body is not a JSON object the route reads.'),
  '413': failure('`PAYLOAD_TOO_LARGE`: at most 256 KB.'),
  '415': failure('`UNSUPPORTED_MEDIA_TYPE`: only `application/json`.'),
};

/** What a decision answers: what it did, or why not (with the card where the person may see it). */
function decisionResponses(what: string) {
  return {
    '200': answer(`${what}: the card as it is now, and words for what happened.`, 'Decided'),
    '202': failure(
      '`AWAITING_APPROVALS` (recorded; more people must approve) or `SCHEDULED` (held for its undo window until `deliverAt`).',
    ),
    ...postRefusals,
    '404': failure(
      '`CONFIRMATION_NOT_FOUND`, or an unknown approval link (`LINK_REFUSED`, `reason: unknown`).',
    ),
    '409': failure(
      '`ALREADY_DECIDED` (with `decidedBy`), `EXPIRED`, `PAYLOAD_CHANGED`, `EDIT_NOT_PREVIEWED` …',
    ),
    '410': failure('`LINK_REFUSED`: the approval link was used or expired.'),
    '422': failure('`INVALID_INPUT` (an edit with `issues`).'),
    '429': failure('`LIMIT_REACHED` (with `rule` and `resetsAt`).'),
    '502': failure('`DELIVERY_FAILED`: confirmed, and the delivery threw (the card says so).'),
    '503': failure('`STORE_FAILED`: the store could not be reached; nothing was decided.'),
  };
}

const body = (name: string, required = true) => ({ required, content: json(ref(name)) });

/** What a passkey route answers besides its own 200: the person's credential, or the registry's no. */
const passkeyRefusals = {
  ...postRefusals,
  '403': failure(
    '`PASSKEY_REQUIRED` (the registry has no `passkeys`, or the person has none registered), `PASSKEY_INVALID` (a registration that does not verify), `FORBIDDEN`, `FORBIDDEN_ORIGIN` …',
  ),
  '503': failure('`STORE_FAILED`.'),
};
const passkeyId = {
  name: 'id',
  in: 'path',
  required: true,
  description: "One of the signed-in person's credential ids (base64url).",
  schema: { type: 'string' },
};
const linkOrSession = [{ session: [] }, { approvalLink: [] }];

function decisionRoute(summary: string, bodyName: string, byLink = false) {
  return {
    post: {
      summary,
      parameters: [idParameter],
      requestBody: body(bodyName, bodyName === 'ConfirmBody'),
      responses: decisionResponses(summary),
      ...(byLink ? { security: linkOrSession } : {}),
    },
  };
}

function challengeRoute(what: string) {
  return {
    post: {
      summary: `The options of \`navigator.credentials.get\` for the signed-in person's approval of ${what} with the digest named.`,
      parameters: [idParameter],
      requestBody: body('ChallengeBody'),
      responses: {
        '200': answer('A challenge, single use, valid for `challengeTtlMs`.', 'PasskeyChallenge'),
        ...passkeyRefusals,
        '404': failure('`CONFIRMATION_NOT_FOUND`.'),
        '409': failure('`ALREADY_DECIDED`, `EXPIRED`, `PAYLOAD_CHANGED` (another digest) …'),
      },
    },
  };
}

const paths: Readonly<Record<string, Json>> = {
  '/': {
    get: {
      summary: 'The console page.',
      responses: { '200': other('text/html', 'The page (signed out: the sign-in page).') },
    },
  },
  '/confirmations/{id}': {
    get: {
      summary: "One confirmation's page.",
      parameters: [idParameter],
      responses: { '200': other('text/html', 'The page (signed out: the sign-in page).') },
    },
  },
  '/passkeys': {
    get: {
      summary: "The signed-in person's Passkeys page: list, add, remove.",
      responses: { '200': other('text/html', 'The page (signed out: the sign-in page).') },
    },
  },
  '/link/{id}': {
    get: {
      summary: "An approval link's page (its token after `#`, never sent to the server).",
      security: [],
      parameters: [idParameter],
      responses: { '200': other('text/html', 'The page, which reads the token and calls the API with it.') },
    },
  },
  '/assets/console.js': {
    get: {
      summary: "The page's script.",
      security: [],
      responses: { '200': other('text/javascript', 'The script.') },
    },
  },
  '/assets/console.css': {
    get: {
      summary: "The page's style.",
      security: [],
      responses: { '200': other('text/css', 'The style sheet.') },
    },
  },
  '/api/openapi.json': {
    get: {
      summary: 'This document.',
      description: 'Public: it is the same for every console and holds nothing of yours.',
      security: [],
      responses: { '200': { description: 'This document.', content: json({ type: 'object' }) } },
    },
  },
  '/api/session': {
    get: {
      summary: 'Who is signed in, in which language, and the server clock.',
      responses: { '200': answer('The person.', 'Session'), ...refusals },
    },
  },
  '/api/confirmations': {
    get: {
      summary: 'One page of confirmations, newest first, those the person may view.',
      parameters: [
        { name: 'status', in: 'query', schema: ref('Status') },
        { name: 'tool', in: 'query', schema: { type: 'string' } },
        { name: 'cursor', in: 'query', schema: { type: 'string' } },
        { name: 'limit', in: 'query', schema: { type: 'string', pattern: '^[0-9]{1,4}$' } },
      ],
      responses: {
        '200': answer('The page, and the send and write tools to filter by.', 'ListPage'),
        '400': failure('`BAD_REQUEST` or `INVALID_OPTION`: a status, cursor or limit not read.'),
        ...refusals,
        '503': failure('`STORE_FAILED`.'),
      },
    },
  },
  '/api/confirmations/{id}': {
    get: {
      summary: 'One confirmation as a card (through an approval link: whose link, until when).',
      security: linkOrSession,
      parameters: [idParameter],
      responses: {
        '200': answer('The card.', 'ConfirmationAnswer'),
        ...refusals,
        '404': failure('`CONFIRMATION_NOT_FOUND`, or an unknown approval link.'),
        '410': failure('`LINK_REFUSED`: the approval link was used or expired.'),
        '503': failure('`STORE_FAILED`.'),
      },
    },
  },
  '/api/confirmations/{id}/confirm': decisionRoute(
    'Confirm: send exactly the payload whose digest is named (or a previewed edit)',
    'ConfirmBody',
    true,
  ),
  '/api/confirmations/{id}/reject': decisionRoute('Reject: nothing is sent', 'ReasonBody', true),
  '/api/confirmations/{id}/retry': decisionRoute('Retry a failed or unknown delivery', 'RetryBody'),
  '/api/confirmations/{id}/mark-delivered': decisionRoute(
    'Mark a failed or unknown one delivered: it is not sent again',
    'NoteBody',
  ),
  '/api/confirmations/{id}/cancel': decisionRoute('Cancel a send held for its undo window', 'ReasonBody'),
  '/api/confirmations/{id}/preview': {
    post: {
      summary: 'Check an edit without deciding: its digest, canonical JSON and what changed.',
      parameters: [idParameter],
      requestBody: body('PreviewBody'),
      responses: {
        '200': answer('The edit as checked; confirm it with `editDigest: digest`.', 'Preview'),
        ...postRefusals,
        '404': failure('`CONFIRMATION_NOT_FOUND`.'),
        '409': failure('`ALREADY_DECIDED`, `EXPIRED` …'),
        '422': failure('`INVALID_INPUT`: the edit, with `issues`.'),
        '503': failure('`STORE_FAILED`.'),
      },
    },
  },
  '/api/confirmations/{id}/passkey-challenge': challengeRoute('this confirmation'),
  '/api/bundles/{id}/confirm': decisionRoute('Confirm a bundle whole (its bundle digest)', 'ConfirmBody'),
  '/api/bundles/{id}/passkey-challenge': challengeRoute('this bundle (one assertion for all its steps)'),
  '/api/bundles/{id}/reject': decisionRoute('Reject a bundle: none of its steps is sent', 'ReasonBody'),
  '/api/confirm-many': {
    post: {
      summary: 'Confirm up to 100, each with its digest, each decided on its own.',
      requestBody: body('ConfirmManyBody'),
      responses: { '200': answer('One result per item, in order.', 'BulkOutcome'), ...postRefusals },
    },
  },
  '/api/reject-many': {
    post: {
      summary: 'Reject up to 100 with one reason, each decided on its own.',
      requestBody: body('RejectManyBody'),
      responses: { '200': answer('One result per item, in order.', 'BulkOutcome'), ...postRefusals },
    },
  },
  '/api/passkeys': {
    get: {
      summary: "The signed-in person's passkeys (never anyone else's).",
      responses: {
        '200': answer('Their passkeys.', 'PasskeyList'),
        ...refusals,
        '403': passkeyRefusals['403'],
        '503': failure('`STORE_FAILED`.'),
      },
    },
    post: {
      summary: 'Register the passkey the browser made with the options of `/api/passkeys/options`.',
      requestBody: body('RegisterBody'),
      responses: {
        '200': answer('Registered to the signed-in person, recorded in the audit log.', 'PasskeyAdded'),
        ...passkeyRefusals,
      },
    },
  },
  '/api/passkeys/options': {
    post: {
      summary: "The options of `navigator.credentials.create` for the signed-in person's new passkey.",
      requestBody: { required: true, content: json(object({})) },
      responses: { '200': answer('The options.', 'PasskeyCreation'), ...passkeyRefusals },
    },
  },
  '/api/passkeys/{id}': {
    delete: {
      summary: "Remove one of the signed-in person's passkeys (recorded in the audit log).",
      parameters: [passkeyId],
      requestBody: { required: true, content: json(object({})) },
      responses: {
        '200': answer('Removed.', 'PasskeyRemoved'),
        ...passkeyRefusals,
        '404': failure("`NOT_FOUND`: none of this person's passkeys has that id."),
      },
    },
  },
  '/api/events': {
    get: {
      summary:
        'Live updates: a `change` event (`data: {"id": …}`) whenever a confirmation the person may view changes.',
      responses: {
        '200': other('text/event-stream', 'Server-sent events: `event: change` and `data: {"id":"…"}`.'),
        ...refusals,
        '429': failure('`TOO_MANY_STREAMS`: this person holds 5 open already.'),
        '503': failure('`CONSOLE_CLOSED`.'),
      },
    },
  },
};

/**
 * The console's JSON API as an OpenAPI 3.1 document, for a console reached at `server` (its `publicUrl`,
 * else its base path: `''` or `'/approvals'`): every route it answers, each request body and every
 * answer, errors too.
 */
export function consoleOpenApi(server: string): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'graded-tools approvals console',
      version: '1',
      description:
        "The JSON API the approvals console's page uses. A person is signed in by your `authenticate` (your session, usually a cookie); an approval link's token goes in the `x-approval-link` header and opens its one confirmation only. Every POST and DELETE must be JSON (`Content-Type: application/json`) from the console's own origin (`Origin`). Every answer is JSON `{ ok: true, … }` or `{ ok: false, code, error }`.",
    },
    servers: [{ url: server === '' ? '/' : server }],
    security: [{ session: [] }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'session',
          description: "Your app's own session, read by `authenticate`: whatever cookie or header it reads.",
        },
        approvalLink: {
          type: 'apiKey',
          in: 'header',
          name: 'x-approval-link',
          description:
            "An approval link's token (the part after `#`): its one confirmation, confirm or reject only.",
        },
      },
    },
  };
}
