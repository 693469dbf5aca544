import { policySetTextToParts, policyToJson } from '@cedar-policy/cedar-wasm/nodejs';
import { ToolDefinitionError } from '../../errors/tool-definition-error.js';
import { describeCedarErrors } from './describe-cedar-errors.js';

/** One static policy of a Cedar text, with Cedar's id for it. */
export interface CedarPolicy {
  /** Cedar's id: `policy0`, `policy1`, … in source order. */
  readonly id: string;
  readonly text: string;
  readonly effect: 'permit' | 'forbid';
  /** Its annotations; one written without a value (`@approvals`) reads as `''`. */
  readonly annotations: Readonly<Record<string, string>>;
}

/** Splits a Cedar text into its policies, in source order; throws `ToolDefinitionError` if it cannot. */
export function readPolicySet(text: unknown): CedarPolicy[] {
  if (typeof text !== 'string') invalid('`policies` must be the Cedar policies as text.');
  const parts = policySetTextToParts(text);
  if (parts.type === 'failure')
    invalid(`Cedar policies could not be parsed: ${describeCedarErrors(parts.errors)}`);
  if (parts.policy_templates.length > 0) {
    invalid('Cedar templates (`?principal`, `?resource`) are not supported: write static policies.');
  }
  // Cedar numbers a text's policies policy0, policy1, … in source order and returns them sorted by that id.
  const ids = parts.policies.map((_, index) => `policy${index}`).sort();
  return parts.policies
    .map((policy, index) => readPolicy(ids[index] ?? '', policy))
    .sort((a, b) => Number(a.id.slice('policy'.length)) - Number(b.id.slice('policy'.length)));
}

function readPolicy(id: string, text: string): CedarPolicy {
  const parsed = policyToJson(text);
  if (parsed.type === 'failure')
    invalid(`Cedar policy ${id} could not be read: ${describeCedarErrors(parsed.errors)}`);
  const annotations: Record<string, string> = {};
  // A valueless annotation comes back as null, whatever the declared type says.
  for (const [key, value] of Object.entries(parsed.json.annotations ?? {})) annotations[key] = value ?? '';
  return { id, text, effect: parsed.json.effect, annotations };
}

function invalid(message: string): never {
  throw new ToolDefinitionError('INVALID_OPTION', '', message);
}
