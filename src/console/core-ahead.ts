// TEMPORARY: the core API of the console contract, declared until "Core: edit before confirm" lands on
// main. Deleted at the merge.
import type { Locale } from '../messages/index.js';
import type { ToolFailure } from '../result.js';
import type { JsonSchema } from '../tool.js';

declare module '../confirm/types.js' {
  interface ConfirmOptions {
    readonly payload?: unknown;
  }
  interface ConfirmationsView {
    watch(listener: (notice: { readonly id?: string }) => void): () => void;
    tool(name: string):
      | {
          readonly name: string;
          readonly title: string;
          readonly description: string;
          readonly editable: readonly string[];
          readonly payloadSchema?: JsonSchema;
        }
      | undefined;
    checkEdit(
      id: string,
      payload: unknown,
      options?: { readonly locale?: Locale },
    ): Promise<
      | { readonly ok: true; readonly payload: unknown; readonly digest: string; readonly changed: string[] }
      | ToolFailure
    >;
  }
}
