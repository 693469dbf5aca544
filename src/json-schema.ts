/** A plain JSON Schema object (draft 2020-12 or draft-07) whose root describes an object. */
export type JsonSchema = { readonly [key: string]: unknown };
