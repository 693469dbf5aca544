import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { tool as agentsTool, RunContext } from '@openai/agents-core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { createAjvValidator, ToolRegistry } from 'graded-tools';
import { z } from 'zod';
import { compareRates, formatRate, median, timeOnce, verdict } from './measure.js';
import { searchArgs, searchRun, searchSchema, searchShape } from './search-tool.js';

const schema = searchSchema;
const zodSchema = z.object(searchShape);
const args = searchArgs;
const run = searchRun;

function tenThousandTools(registry: ToolRegistry): void {
  for (let i = 0; i < 10_000; i += 1) {
    registry.register({
      name: `bench.tool${i}`,
      description: `Tool number ${i}.`,
      sideEffect: i % 3 === 0 ? 'read' : 'write',
      ...(i % 5 === 0 ? { featureFlag: 'beta' } : {}),
      inputSchema: schema,
      run,
    });
  }
}

/** `JSON.parse` + `validate` + `await run`: the bare path the model exit is compared with. */
function barePath(validate: (input: unknown) => boolean) {
  return async () => {
    const input = JSON.parse(args) as { query: string; limit: number };
    if (!validate(input)) throw new Error('invalid');
    return { ok: true, data: await run(input) };
  };
}

/**
 * The bare path with a timeout done the plain way, a fresh `AbortSignal.timeout` raced per call (what
 * `invoke/deadlines.ts` replaces with one shared timer).
 */
function plainTimeoutPath(validate: (input: unknown) => boolean, timeoutMs: number) {
  return async () => {
    const input = JSON.parse(args) as { query: string; limit: number };
    if (!validate(input)) throw new Error('invalid');
    const signal = AbortSignal.any([new AbortController().signal, AbortSignal.timeout(timeoutMs)]);
    let onAbort: (() => void) | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return { ok: true, data: await Promise.race([run(input), timedOut]) };
    } finally {
      if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
    }
  };
}

const spread = (values: number[]) => `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`;

/** The model exit against the bare path and agents-core, repeated so the spread shows. */
async function benchModelExit(): Promise<string[]> {
  const lines: string[] = [];
  const jsonTool = new ToolRegistry().register({
    name: 'kb.search',
    description: 'Search.',
    sideEffect: 'read',
    inputSchema: schema,
    run,
  });
  const zodTool = new ToolRegistry().register({
    name: 'kb.search',
    description: 'Search.',
    sideEffect: 'read',
    inputSchema: zodSchema,
    run,
  });
  // The very validator the registry compiles for this schema (Ajv 2020 with ajv-formats, all errors).
  // Ajv is imported on demand: a validator used on its own is loaded first, as the registry does.
  const validator = createAjvValidator();
  await validator.load?.();
  const compiled = validator.compile(schema);
  const ajvBare = barePath((input) => compiled(input).valid);
  const zodBare = barePath((input) => zodSchema.safeParse(input).success);
  const agentsZod = agentsTool({
    name: 'kb_search',
    description: 'Search.',
    parameters: zodSchema,
    execute: run,
  });
  const agentsJson = agentsTool({
    name: 'kb_search',
    description: 'Search.',
    parameters: schema as never,
    strict: false,
    execute: (input) => run(input as { query: string; limit: number }),
  });
  const runContext = new RunContext({});
  for (const registry of [jsonTool, zodTool]) {
    if (!(await registry.invokeReadOnly('kb__search', args)).ok) throw new Error('bench tool does not run');
  }
  const names = {
    ours: 'graded-tools invokeReadOnly, JSON Schema (Ajv)',
    bare: 'bare: JSON.parse + the same Ajv validator + run',
    oursZod: 'graded-tools invokeReadOnly, zod (Standard Schema)',
    bareZod: 'bare: JSON.parse + the same zod schema + run',
    agentsZod: 'agents-core tool.invoke, zod',
    agentsJson: 'agents-core tool.invoke, JSON Schema (not validated)',
  };
  const contenders = {
    [names.ours]: () => jsonTool.invokeReadOnly('kb__search', args),
    [names.bare]: ajvBare,
    [names.oursZod]: () => zodTool.invokeReadOnly('kb__search', args),
    [names.bareZod]: zodBare,
    [names.agentsZod]: () => agentsZod.invoke(runContext, args),
    [names.agentsJson]: () => agentsJson.invoke(runContext, args),
  };
  const repeats: Record<string, number>[] = [];
  for (let i = 0; i < 3; i += 1) repeats.push(await compareRates(contenders, { batch: 20_000, rounds: 11 }));
  const rate = (name: string) => median(repeats.map((r) => r[name] ?? 0));
  const ratios = (over: string, under: string) => repeats.map((r) => (r[over] ?? 0) / (r[under] ?? 1));
  lines.push('## The model exit: one call, 3-property schema, raw JSON arguments (3 runs, median; spread)');
  for (const name of Object.keys(contenders)) lines.push(`  ${name.padEnd(54)} ${formatRate(rate(name))}`);
  const cost = ratios(names.bare, names.ours);
  const costZod = ratios(names.bareZod, names.oursZod);
  const vsAgents = ratios(names.ours, names.agentsZod);
  const vsAgentsZod = ratios(names.oursZod, names.agentsZod);
  lines.push(
    `  Ajv: ${median(cost).toFixed(2)}x the bare path's time (${spread(cost)}; target <= 1.5x: ${verdict(median(cost) <= 1.5)})`,
    `  zod: ${median(costZod).toFixed(2)}x the bare path's time (${spread(costZod)})`,
    `  vs agents-core's zod tool, ours with Ajv: ${median(vsAgents).toFixed(1)}x faster (${spread(vsAgents)}; target >= 7x: ${verdict(median(vsAgents) >= 7)})`,
    `  vs agents-core's zod tool, ours with the same zod schema: ${median(vsAgentsZod).toFixed(1)}x faster (${spread(vsAgentsZod)})`,
    `  vs agents-core, JSON Schema unvalidated: ${(rate(names.ours) / rate(names.agentsJson)).toFixed(1)}x faster`,
  );
  // Apart, after the rest: every plain timeout leaves a live timer behind for 30 s, which slows what
  // runs beside it.
  const plain = await compareRates(
    { bare: ajvBare, 'plain timeout': plainTimeoutPath((input) => compiled(input).valid, 30_000) },
    { batch: 2_000, rounds: 7 },
  );
  const plainCost = (plain.bare ?? 0) / (plain['plain timeout'] ?? 1);
  lines.push(
    `  the bare path with a plain per-call timeout (AbortSignal.timeout + AbortSignal.any): ${plainCost.toFixed(1)}x the bare path's time (what the shared deadline timer saves)`,
  );
  return lines;
}

/** The core benchmark: the model exit's overhead and the registry's scaling. Prints and returns its lines. */
export async function benchCore(): Promise<string[]> {
  const lines = await benchModelExit();
  const registerMs = await timeOnce(() => tenThousandTools(new ToolRegistry()), 3);
  const compileMs = await timeOnce(() => {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    for (let i = 0; i < 1_000; i += 1) ajv.compile({ ...schema, $id: `s${i}` });
  }, 1);
  const ctx = { flags: { beta: true } };
  const firstTimes: number[] = [];
  for (let i = 0; i < 5; i += 1) {
    const fresh = new ToolRegistry();
    tenThousandTools(fresh);
    const started = performance.now();
    fresh.toFunctionSchemas(ctx);
    firstTimes.push(performance.now() - started);
  }
  const firstMs = median(firstTimes);
  const big = new ToolRegistry();
  tenThousandTools(big);
  big.toFunctionSchemas(ctx);
  const repeatedMs = await timeOnce(() => big.toFunctionSchemas(ctx), 101);
  lines.push('## Scaling');
  lines.push(
    `  register 10,000 tools: ${registerMs.toFixed(1)} ms (${((registerMs / 10_000) * 1000).toFixed(2)} µs a tool; no schema compiled)`,
  );
  lines.push(
    `  compiling 1,000 schemas with Ajv, for scale: ${compileMs.toFixed(0)} ms (so 10,000 eagerly would take ~${((compileMs * 10) / 1000).toFixed(1)} s)`,
  );
  lines.push(
    `  toFunctionSchemas over 10,000 tools, first call: ${firstMs.toFixed(2)} ms (${big.toFunctionSchemas(ctx).length} model tools)`,
  );
  lines.push(
    `  toFunctionSchemas, repeated for the same ctx: ${repeatedMs.toFixed(3)} ms (${(firstMs / repeatedMs).toFixed(0)}x faster than the first)`,
  );
  lines.push(...(await benchContexts()));
  lines.push(...(await benchRegisterCycles()));
  return lines;
}

/** The model's list when an app serves many tenants: 300 contexts asked in random order. */
async function benchContexts(): Promise<string[]> {
  const registry = new ToolRegistry();
  for (let i = 0; i < 200; i += 1) {
    registry.register({
      name: `tenant.tool${i}`,
      description: `Tool ${i}.`,
      sideEffect: 'read',
      scopes: [`t${i % 300}`, `t${(i * 7) % 300}`],
      inputSchema: schema,
      run,
    });
  }
  const contexts = Array.from({ length: 300 }, (_, i) => ({ scope: `t${i}`, flags: { beta: true } }));
  let seed = 7;
  const order = Array.from({ length: 3_000 }, () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return contexts[seed % contexts.length] as (typeof contexts)[number];
  });
  const one = contexts[0] as (typeof contexts)[number];
  const oneMs = await timeOnce(() => {
    for (let i = 0; i < order.length; i += 1) registry.toFunctionSchemas(one);
  }, 5);
  const manyMs = await timeOnce(() => {
    for (const ctx of order) registry.toFunctionSchemas(ctx);
  }, 5);
  return [
    '## The model list across tenants (200 tools, 300 contexts, 256 kept, least recently used dropped)',
    `  one context, 3,000 lists: ${((oneMs / order.length) * 1000).toFixed(2)} µs a list`,
    `  300 contexts in random order, 3,000 lists: ${((manyMs / order.length) * 1000).toFixed(2)} µs a list (${(manyMs / oneMs).toFixed(1)}x the single context)`,
  ];
}

/** Memory kept after register/call/unregister cycles: compiled validators must go with their tools. */
async function benchRegisterCycles(): Promise<string[]> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const registry = new ToolRegistry();
  const cycles = async (from: number, count: number) => {
    for (let i = from; i < from + count; i += 1) {
      registry.register({
        name: `cycle.tool${i}`,
        description: 'Cycled.',
        sideEffect: 'read',
        inputSchema: { ...schema, properties: { ...schema.properties, [`p${i}`]: { type: 'string' } } },
        run,
      });
      await registry.invoke(`cycle.tool${i}`, { query: 'x', limit: 1, locale: 'en' });
      registry.unregister(`cycle.tool${i}`);
    }
  };
  await cycles(0, 500);
  gc();
  const before = process.memoryUsage().heapUsed;
  await cycles(500, 10_000);
  gc();
  const grown = process.memoryUsage().heapUsed - before;
  return [
    '## Register, call and unregister 10,000 tools, each with its own schema',
    `  heap kept afterwards: ${(grown / 1024 / 1024).toFixed(1)} MB (${(grown / 10_000).toFixed(0)} bytes a cycle)`,
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await benchCore()) console.log(line);
}
