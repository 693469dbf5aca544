import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { SignedAuditHead } from '../audit/signed-head.js';
import type { PasskeyVerifier } from '../passkeys/passkey-verifier.js';
import { describeThrown } from '../util/describe-thrown.js';
import { openAudit } from './audit-store.js';
import type { CommandIo } from './command-io.js';
import { answerUnread, type Positional, readCommandLine, type Unread } from './command-line.js';
import { AUDIT_USAGE } from './usage.js';

/** Where `graded-tools audit` writes: the verdict or the JSON Lines on `out`, problems on `error`. */
export interface AuditIo extends CommandIo {
  readonly out: (line: string) => void;
  /** Raw output for `export` (each line already ends in a newline); `out` when absent. */
  readonly write?: (text: string) => void;
}

const PREFIX = 'graded-tools audit:';

interface AuditRequest {
  readonly command: 'verify' | 'export';
  readonly store: string;
  readonly table: string | undefined;
  readonly signedHead: string | undefined;
  readonly publicKey: string | undefined;
  readonly since: string | undefined;
  readonly until: string | undefined;
  /** `--approvals`: the relying party passkey approvals were signed for. */
  readonly approvals: { readonly rpID: string; readonly origin: readonly string[] } | undefined;
}

const AUDIT_COMMAND: Positional = {
  missing: 'Give an audit command: verify or export.',
  refuse: (name) => (name === 'verify' || name === 'export' ? undefined : `Unknown audit command "${name}".`),
};

function readRequest(args: readonly string[]): AuditRequest | Unread | 'help' {
  const line = readCommandLine(
    args,
    {
      store: { type: 'string' },
      table: { type: 'string' },
      'signed-head': { type: 'string' },
      'public-key': { type: 'string' },
      since: { type: 'string' },
      until: { type: 'string' },
      approvals: { type: 'boolean' },
      'rp-id': { type: 'string' },
      origin: { type: 'string' },
    },
    [AUDIT_COMMAND],
  );
  if (line === 'help' || 'usage' in line) return line;
  const { values } = line;
  // AUDIT_COMMAND refused anything else.
  const command = line.positionals[0] as AuditRequest['command'];
  if (values.store === undefined) return { usage: 'Give --store sqlite:FILE or postgres:URL.' };
  if ((values['signed-head'] === undefined) !== (values['public-key'] === undefined))
    return { usage: 'Give --signed-head and --public-key together.' };
  const approvals = values.approvals === true;
  if (approvals && command !== 'verify') return { usage: '--approvals is for verify.' };
  if (approvals && (values['rp-id'] === undefined || values.origin === undefined))
    return { usage: 'Give --approvals with --rp-id and --origin (the relying party the passkeys are for).' };
  return {
    command,
    approvals: approvals
      ? { rpID: values['rp-id'] as string, origin: (values.origin as string).split(',').map((o) => o.trim()) }
      : undefined,
    store: values.store,
    table: values.table,
    signedHead: values['signed-head'],
    publicKey: values['public-key'],
    since: values.since,
    until: values.until,
  };
}

/**
 * `graded-tools audit verify|export --store …`: verify exits 0 for an unbroken log, 1 naming the first
 * bad entry, 2 when the command, the store or the signed head cannot be used; export streams JSON Lines.
 */
export async function runAuditCommand(args: readonly string[], io: AuditIo): Promise<number> {
  const request = readRequest(args);
  if (request === 'help' || 'usage' in request)
    return answerUnread(request, { command: 'audit', usage: AUDIT_USAGE, out: io.out, error: io.error });
  let signed: { signedHead: SignedAuditHead; publicKey: string } | undefined;
  try {
    if (request.signedHead !== undefined && request.publicKey !== undefined)
      signed = {
        signedHead: JSON.parse(readFileSync(resolve(io.cwd, request.signedHead), 'utf8')) as SignedAuditHead,
        publicKey: readFileSync(resolve(io.cwd, request.publicKey), 'utf8'),
      };
  } catch (error) {
    io.error(`${PREFIX} cannot read the signed head or the public key: ${describeThrown(error)}`);
    return 2;
  }
  let opened: Awaited<ReturnType<typeof openAudit>>;
  try {
    opened = await openAudit(request.store, io.cwd, request.table, await verifierFor(request.approvals));
  } catch (error) {
    opened = describeThrown(error);
  }
  if (typeof opened === 'string') {
    io.error(`${PREFIX} ${opened}`);
    return 2;
  }
  try {
    if (request.command === 'export') {
      const write = io.write ?? ((text: string) => io.out(text.slice(0, -1)));
      for await (const line of opened.log.export({ since: request.since, until: request.until })) write(line);
      const { all } = await opened.log.uncovered();
      if (all > 0) io.error(`${PREFIX} ${all} entries not covered (never sequenced) are not in this export.`);
      return 0;
    }
    const verdict = await opened.log.verify({ ...signed, approvals: request.approvals !== undefined });
    if (verdict.ok) {
      const young = verdict.unsequenced > 0 ? `; ${verdict.unsequenced} entries not covered yet` : '';
      const approvals =
        verdict.approvals === undefined ? '' : `; ${verdict.approvals.checked} passkey approvals verified`;
      io.out(
        `ok: ${verdict.entries} entries, head ${verdict.head.seq} ${verdict.head.hash}${young}${approvals}`,
      );
      return 0;
    }
    if (verdict.reason === 'approvals') {
      for (const problem of verdict.approvals?.problems ?? [])
        io.out(
          `approval refused at ${problem.seq} (${problem.reason}): confirmation ${problem.confirmationId}${problem.by === undefined ? '' : ` by ${problem.by}`}`,
        );
      return 1;
    }
    if (verdict.reason === 'unreadable') {
      io.error(`${PREFIX} ${verdict.message}`);
      return 2;
    }
    io.out(`broken at ${verdict.brokenAt} (${verdict.reason}): ${verdict.message}`);
    return 1;
  } catch (error) {
    io.error(`${PREFIX} ${describeThrown(error)}`);
    return 2;
  } finally {
    await opened.close();
  }
}

/** `--approvals`: the passkey verifier, loaded only then (`graded-tools/passkeys`, an optional peer). */
async function verifierFor(approvals: AuditRequest['approvals']): Promise<PasskeyVerifier | undefined> {
  if (approvals === undefined) return undefined;
  const { createPasskeys } = await import('../integrations/passkeys/index.js');
  return createPasskeys({ rpID: approvals.rpID, rpName: approvals.rpID, origin: approvals.origin });
}
