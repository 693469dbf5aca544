// What tracing costs the model's exit: no telemetry, `openTelemetry()` with no tracer provider
// registered (the no-op tracer of @opentelemetry/api), and, for scale, a provider that records every
// span (the SDK's, with no exporter, so only the span work is measured).
import { TracerProvider } from '@opentelemetry/sdk-trace';
import { ToolRegistry } from 'graded-tools';
import { openTelemetry } from 'graded-tools/opentelemetry';
import { compareRates, formatRate, timeOnce, verdict } from './measure.js';
import { searchArgs, searchRun, searchSchema } from './search-tool.js';

function registryWith(options: ConstructorParameters<typeof ToolRegistry>[0]): ToolRegistry {
  return new ToolRegistry(options).register({
    name: 'kb.search',
    description: 'Search.',
    sideEffect: 'read',
    inputSchema: searchSchema,
    run: searchRun,
  });
}

/** The model exit with and without tracing. Returns its lines. */
export async function benchTelemetry(options: { quick: boolean }): Promise<string[]> {
  const plain = registryWith({});
  const noProvider = registryWith({ telemetry: openTelemetry() });
  const recording = registryWith({ telemetry: openTelemetry({ tracerProvider: new TracerProvider() }) });
  for (const registry of [plain, noProvider, recording]) {
    if (!(await registry.invokeReadOnly('kb__search', searchArgs)).ok)
      throw new Error('bench tool does not run');
  }
  const batches = { batch: options.quick ? 5_000 : 20_000, rounds: options.quick ? 5 : 11 };
  // The no-provider case against none, alone: a process has one of them, and a third contender in the
  // same loop would make the shared call path polymorphic for both.
  const rates = await compareRates(
    {
      'no telemetry': () => plain.invokeReadOnly('kb__search', searchArgs),
      'openTelemetry(), no provider registered': () => noProvider.invokeReadOnly('kb__search', searchArgs),
    },
    batches,
  );
  const scale = await compareRates(
    {
      'no telemetry (again)': () => plain.invokeReadOnly('kb__search', searchArgs),
      'openTelemetry(), a recording SDK provider': () => recording.invokeReadOnly('kb__search', searchArgs),
    },
    batches,
  );
  const base = rates['no telemetry'] ?? 1;
  const idle = rates['openTelemetry(), no provider registered'] ?? 1;
  const live =
    (scale['no telemetry (again)'] ?? 1) / (scale['openTelemetry(), a recording SDK provider'] ?? 1);
  const lines = ['## Tracing the model exit (one read call, as in the core benchmark)'];
  for (const [name, rate] of Object.entries({ ...rates, ...scale }))
    lines.push(`  ${name.padEnd(54)} ${formatRate(rate)}`);
  const idleCost = base / idle;
  lines.push(
    `  no provider: ${idleCost.toFixed(3)}x the untraced time (target <= 1.05x, i.e. within run-to-run noise: ${verdict(idleCost <= 1.05)})`,
  );
  lines.push(`  recording every span: ${live.toFixed(2)}x the untraced time (for scale; no target)`);
  // The whole of what tracing adds per call with no provider, timed alone: steadier than a ratio of
  // two rates on a shared machine.
  const idleTelemetry = openTelemetry();
  const start = {
    tool: undefined,
    asked: 'kb.search',
    caller: 'model',
    callId: undefined,
    input: searchArgs,
  } as const;
  const calls = 1_000_000;
  const checkMs = await timeOnce(() => {
    for (let i = 0; i < calls; i += 1) idleTelemetry.startToolSpan(start);
  }, 5);
  const checkNs = (checkMs * 1e6) / calls;
  lines.push(
    `  no provider, the telemetry's part alone: ${checkNs.toFixed(0)} ns a call (${((checkNs / (1e9 / base)) * 100).toFixed(1)}% of one untraced call)`,
  );
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await benchTelemetry({ quick: process.argv.includes('--quick') })) console.log(line);
}
