// The rule types live beside the tool definition (src/rule.ts), below every floor that uses them.
export type * from '../../rule.js';
