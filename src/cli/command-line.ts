import { type ParseArgsConfig, parseArgs } from 'node:util';
import { describeThrown } from '../util/describe-thrown.js';

type Options = NonNullable<ParseArgsConfig['options']>;

const HELP = { help: { type: 'boolean', short: 'h' } } as const;

type Values<O extends Options> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O & typeof HELP; allowPositionals: true; strict: true }>
>['values'];

/** A positional argument: what is said when it is missing, and why a value is refused (when it can be). */
export interface Positional {
  readonly missing: string;
  readonly refuse?: (value: string) => string | undefined;
}

/** The registry module every command but `audit` takes first. */
export const REGISTRY_MODULE: Positional = { missing: 'Give the registry module.' };

/** Why a command line could not be read, in one line. */
export interface Unread {
  readonly usage: string;
}

/** A command line read: its options and positionals; or `help`; or why it could not be read. */
export type CommandLine<O extends Options> =
  | { readonly values: Values<O>; readonly positionals: readonly string[] }
  | 'help'
  | Unread;

/**
 * The one reader of a command's arguments: node's `parseArgs` (strict, `-h`/`--help` added), then the
 * `positionals` in order, each present and not refused, and nothing after them.
 */
export function readCommandLine<const O extends Options>(
  args: readonly string[],
  options: O,
  positionals: readonly Positional[],
): CommandLine<O> {
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({
      args: [...args],
      options: { ...options, ...HELP },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    return { usage: describeThrown(error) };
  }
  if (parsed.values.help === true) return 'help';
  for (const [index, positional] of positionals.entries()) {
    const value = parsed.positionals[index];
    if (value === undefined) return { usage: positional.missing };
    const refused = positional.refuse?.(value);
    if (refused !== undefined) return { usage: refused };
  }
  const extra = parsed.positionals.slice(positionals.length);
  if (extra.length > 0) return { usage: `Unexpected: ${extra.join(' ')}` };
  return { values: parsed.values as Values<O>, positionals: parsed.positionals };
}

/** A command's help and where it writes, for `answerUnread`. */
export interface CommandHelp {
  /** `mcp`, `access`, …: the prefix of a usage error. */
  readonly command: string;
  readonly usage: string;
  /** Where the help goes when asked for: stdout, or stderr where stdout is a protocol. */
  readonly out: (text: string) => void;
  readonly error: (text: string) => void;
}

/**
 * The one answer when a command does not run: `help` prints the help on `out` and exits 0; a command
 * line that could not be read prints why, then the help, on `error` and exits 2.
 */
export function answerUnread(unread: 'help' | Unread, help: CommandHelp): number {
  if (unread === 'help') {
    help.out(help.usage);
    return 0;
  }
  help.error(`graded-tools ${help.command}: ${unread.usage}\n\n${help.usage}`);
  return 2;
}
