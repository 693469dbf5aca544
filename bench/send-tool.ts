// The send tool every confirmation benchmark measures, and one round trip through it: a person
// invokes, confirms with the digest, the tool delivers (for free, so the confirmation path is timed).
import { type ConfirmRequired, defineTool, type RegistryOptions, ToolRegistry } from 'graded-tools';
import type { ConfirmationStore } from 'graded-tools/store';

/** A registry on `store` (and `options`) with the free-to-deliver send tool `name`. */
export function registryOn(
  store: ConfirmationStore,
  name = 'bench.send',
  options: RegistryOptions = {},
): ToolRegistry {
  return new ToolRegistry({ ...options, confirmations: store }).register(
    defineTool({
      name,
      description: 'A send tool whose delivery is free, so the bench measures the confirmation path.',
      sideEffect: 'send',
      inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
      prepare: (input: { n: number }) => ({
        n: input.n,
        to: 'ana@example.com',
        text: 'Your refund is on its way.',
      }),
      deliver: (_payload, approval) => ({ accepted: approval.confirmationId }),
    }),
  );
}

/** One round trip through `bench.send`; throws if any step does not succeed. */
export async function roundTrip(registry: ToolRegistry, n: number): Promise<void> {
  const asked = (await registry.invoke('bench.send', { n }, { actor: 'agent' })) as ConfirmRequired;
  if (!asked.requiresConfirm) throw new Error(`invoke failed: ${JSON.stringify(asked)}`);
  const sent = await registry.confirm(asked.confirmationId, { approvedBy: 'lead', digest: asked.digest });
  if (!sent.ok) throw new Error(`confirm failed: ${sent.error}`);
}
