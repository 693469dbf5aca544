import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';

// Microsoft's reference Adaptive Cards parser and renderer (adaptivecards, a devDependency). Its ESM
// `lib` build has broken imports under Node, so the UMD bundle is loaded through require.
interface ParseEvent {
  readonly event: number;
  readonly message: string;
}
interface ReferenceCard {
  parse(json: unknown, context: unknown): void;
  validateProperties(): { readonly validationEvents: readonly ParseEvent[] };
  toJSON(): unknown;
}
interface AdaptiveCards {
  readonly AdaptiveCard: new () => ReferenceCard;
  readonly SerializationContext: new () => { readonly eventCount: number; getEventAt(i: number): ParseEvent };
}
const AC = createRequire(import.meta.url)('adaptivecards/dist/adaptivecards.js') as AdaptiveCards;

/**
 * What Microsoft's reference parser says is wrong with `card`, or `undefined`: every parse event (an
 * unknown element or action type, a value a property does not take), every failure of
 * `validateProperties()`, and any property it does not know — read back by serializing what it parsed,
 * which keeps only the properties it knows, with the values it accepted.
 */
export function referenceProblem(card: unknown): string | undefined {
  const json = JSON.parse(JSON.stringify(card)) as unknown;
  const context = new AC.SerializationContext();
  const parsed = new AC.AdaptiveCard();
  parsed.parse(json, context);
  const problems: string[] = [];
  for (let i = 0; i < context.eventCount; i++) problems.push(`parse: ${context.getEventAt(i).message}`);
  for (const failure of parsed.validateProperties().validationEvents)
    problems.push(`validate: ${failure.message}`);
  const back = parsed.toJSON();
  if (!isDeepStrictEqual(back, json)) problems.push(`not read back whole: ${firstDifference(json, back)}`);
  return problems.length === 0 ? undefined : problems.slice(0, 3).join('; ');
}

/** Where `b` first differs from `a`, as a path. */
function firstDifference(a: unknown, b: unknown, path = '$'): string {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null)
    return `${path}: ${JSON.stringify(a)} became ${JSON.stringify(b)}`;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    const x = (a as Record<string, unknown>)[key];
    const y = (b as Record<string, unknown>)[key];
    if (!isDeepStrictEqual(x, y)) return firstDifference(x, y, `${path}.${key}`);
  }
  return path;
}
