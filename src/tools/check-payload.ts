import { validateStandard } from '../validation/standard-schema.js';
import type { ValidationOutcome } from '../validation/validator.js';
import type { ToolEntry, ToolTable } from './tool-table.js';

/** An edited payload against the tool's `payloadSchema`: its Standard Schema, or the compiled JSON Schema. */
export async function checkPayload(
  table: ToolTable,
  entry: ToolEntry,
  payload: unknown,
): Promise<ValidationOutcome | string> {
  const standard = entry.tool.payload?.standard;
  if (standard !== undefined) {
    const verdict = await validateStandard(standard, payload);
    return verdict.valid ? { valid: true } : { valid: false, issues: verdict.issues };
  }
  const validate = await table.payloadValidatorOf(entry);
  if (validate === undefined) return { valid: true };
  return typeof validate === 'string' ? validate : validate(payload);
}
