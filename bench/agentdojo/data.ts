// AgentDojo v1 as exported data (`data/agentdojo-v1.json`): the four suites' tools, user tasks and
// injection tasks with their ground-truth calls. Read once, at the edge, into typed values.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SUITES = ['workspace', 'travel', 'banking', 'slack'] as const;
export type SuiteName = (typeof SUITES)[number];

/** One call of a ground truth: AgentDojo's flat tool name and its concrete arguments. */
export interface GroundTruthCall {
  readonly function: string;
  readonly args: Readonly<Record<string, unknown>>;
}

export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly parameters: Readonly<Record<string, unknown>>;
}

export interface UserTask {
  readonly id: string;
  readonly prompt: string;
  readonly groundTruth: readonly GroundTruthCall[];
}

export interface InjectionTask {
  readonly id: string;
  readonly goal: string;
  readonly groundTruth: readonly GroundTruthCall[];
}

export interface SuiteData {
  readonly name: SuiteName;
  readonly tools: readonly ToolSpec[];
  readonly userTasks: readonly UserTask[];
  readonly injectionTasks: readonly InjectionTask[];
}

interface RawTask {
  readonly prompt?: string;
  readonly goal?: string;
  readonly ground_truth: readonly GroundTruthCall[];
}

interface RawSuite {
  readonly tools: readonly ToolSpec[];
  readonly user_tasks: Readonly<Record<string, RawTask>>;
  readonly injection_tasks: Readonly<Record<string, RawTask>>;
}

/** The default data: the copy vendored beside this file. */
export const DEFAULT_DATA_DIR = fileURLToPath(new URL('data', import.meta.url));

/** Reads `agentdojo-v1.json` from `dir`, tasks in their natural order (`user_task_2` before `_10`). */
export function loadSuites(dir: string = DEFAULT_DATA_DIR): SuiteData[] {
  const raw = JSON.parse(readFileSync(join(dir, 'agentdojo-v1.json'), 'utf8')) as Record<string, RawSuite>;
  return SUITES.map((name) => {
    const suite = raw[name];
    if (suite === undefined) throw new Error(`agentdojo-v1.json has no suite '${name}'`);
    return {
      name,
      tools: suite.tools,
      userTasks: byTaskNumber(suite.user_tasks).map(([id, task]) => ({
        id,
        prompt: task.prompt ?? '',
        groundTruth: task.ground_truth,
      })),
      injectionTasks: byTaskNumber(suite.injection_tasks).map(([id, task]) => ({
        id,
        goal: task.goal ?? '',
        groundTruth: task.ground_truth,
      })),
    };
  });
}

function byTaskNumber(tasks: Readonly<Record<string, RawTask>>): [string, RawTask][] {
  const number = (id: string) => Number(id.slice(id.lastIndexOf('_') + 1));
  return Object.entries(tasks).sort(([a], [b]) => number(a) - number(b));
}
