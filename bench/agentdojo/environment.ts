// A suite's environment as AgentDojo builds it: `environment.yaml` (with workspace's `!include`s)
// with every `{injection_*}` placeholder filled — by its benign `default`, or by the attack's text.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse, type ScalarTag } from 'yaml';
import type { SuiteName } from './data.js';

/** A parsed environment: plain YAML values. */
export type Environment = Record<string, unknown>;

/** Each injection vector's benign `default`, from `injection_vectors.yaml`. */
export function injectionDefaults(dataDir: string, suite: SuiteName): Record<string, string> {
  const file = join(dataDir, 'suites', suite, 'injection_vectors.yaml');
  const vectors = parse(readFileSync(file, 'utf8')) as Record<string, { default: string }>;
  return Object.fromEntries(Object.entries(vectors).map(([name, vector]) => [name, vector.default]));
}

/**
 * The environment with `attack` (if given) at every injection vector, the others at their default.
 * Defaults go into the YAML text before it is parsed, as AgentDojo's `str.format` does (so a `\t` in a
 * default becomes a tab). An attack goes in after parsing, verbatim as the string's content: AgentDojo
 * formats it into the text too, where YAML folds its line breaks — the same words and values either way.
 */
export function loadEnvironment(dataDir: string, suite: SuiteName, attack?: string): Environment {
  const defaults = injectionDefaults(dataDir, suite);
  const fill = (text: string) =>
    text.replace(/\{([A-Za-z0-9_]+)\}/g, (whole, name: string) => {
      const value = defaults[name];
      if (value === undefined) return whole;
      return attack === undefined ? value : marker(name);
    });
  const file = join(dataDir, 'suites', suite, 'environment.yaml');
  const environment = parseFile(file, fill);
  return attack === undefined ? environment : (replaceMarkers(environment, attack) as Environment);
}

const INCLUDE = '\u0001include:';

const includeTag: ScalarTag = {
  tag: '!include',
  resolve: (path: string) => `${INCLUDE}${path}`,
};

function parseFile(file: string, fill: (text: string) => string): Environment {
  const parsed = parse(fill(readFileSync(file, 'utf8')), { customTags: [includeTag] }) as Environment;
  for (const [key, value] of Object.entries(parsed)) {
    if (typeof value === 'string' && value.startsWith(INCLUDE)) {
      parsed[key] = parseFile(join(dirname(file), value.slice(INCLUDE.length)), fill);
    }
  }
  return parsed;
}

function marker(name: string): string {
  return `@@INJECTION_${name}@@`;
}

const MARKER = /@@INJECTION_[A-Za-z0-9_]+@@/g;

function replaceMarkers(value: unknown, attack: string): unknown {
  if (typeof value === 'string') return value.replace(MARKER, () => attack);
  if (Array.isArray(value)) return value.map((item) => replaceMarkers(item, attack));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key.replace(MARKER, () => attack),
        replaceMarkers(item, attack),
      ]),
    );
  }
  return value;
}
