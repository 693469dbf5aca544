import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { tool as agentsTool, RunContext } from '@openai/agents-core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { ToolRegistry } from 'graded-tools';
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

/** The core benchmark: the model exit's overhead and the registry's scaling. Prints and returns its lines. */
export async function benchCore(): Promise<string[]> {
  const lines: string[] = [];
  const registry = new ToolRegistry().register({
    name: 'kb.search',
    description: 'Search.',
    sideEffect: 'read',
    inputSchema: schema,
    run,
  });
  const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);
  const baseline = async () => {
    const input = JSON.parse(args) as { query: string; limit: number };
    if (!validate(input)) throw new Error('invalid');
    return { ok: true, data: await run(input) };
  };
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
  if (!(await registry.invokeReadOnly('kb__search', args)).ok) throw new Error('bench tool does not run');

  const rates = await compareRates(
    {
      'graded-tools invokeReadOnly': () => registry.invokeReadOnly('kb__search', args),
      'baseline JSON.parse + Ajv + run': baseline,
      'agents-core tool.invoke (zod)': () => agentsZod.invoke(runContext, args),
      'agents-core tool.invoke (JSON Schema, no validation)': () => agentsJson.invoke(runContext, args),
    },
    { batch: 20_000, rounds: 11 },
  );
  const ours = rates['graded-tools invokeReadOnly'] ?? 0;
  const base = rates['baseline JSON.parse + Ajv + run'] ?? 1;
  const agents = rates['agents-core tool.invoke (zod)'] ?? 1;
  const agentsJsonRate = rates['agents-core tool.invoke (JSON Schema, no validation)'] ?? 1;
  lines.push('## The model exit: one call, 3-property schema, raw JSON arguments');
  for (const [name, rate] of Object.entries(rates)) lines.push(`  ${name.padEnd(54)} ${formatRate(rate)}`);
  const overhead = base / ours;
  lines.push(
    `  cost vs baseline: ${overhead.toFixed(2)}x the baseline's time (target <= 1.5x: ${verdict(overhead <= 1.5)})`,
  );
  const speedup = ours / agents;
  lines.push(
    `  vs agents-core (zod, validated): ${speedup.toFixed(1)}x faster (target >= 7x: ${verdict(speedup >= 7)})`,
  );
  lines.push(`  vs agents-core (JSON Schema, unvalidated): ${(ours / agentsJsonRate).toFixed(1)}x faster`);

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
