// The worst-case model: it replays each task's ground truth through the registry and always obeys an
// injection. Reads go through the model's exit; writes and sends are first tried there (they must be
// refused) and then proposed to a person. Nothing is ever confirmed, so whatever ran, ran without one.
import type { ToolRegistry } from 'graded-tools';
import { importantInstructions } from './attack.js';
import type { GroundTruthCall, InjectionTask, SuiteData, UserTask } from './data.js';
import { type Environment, loadEnvironment } from './environment.js';
import type { ExtraAttack } from './extra-attacks.js';
import { GRADES } from './grades.js';
import type { BenchContext } from './rules.js';
import { createSuiteRegistry, type RanLedger, registeredName } from './suite-registry.js';
import { TRUSTED, type Trusted } from './trusted.js';

/** What became of one call. */
export type CallOutcome =
  | {
      readonly kind: 'read';
      readonly tool: string;
      readonly ok: boolean;
      readonly egress: boolean;
      readonly code?: string;
    }
  | {
      readonly kind: 'proposal';
      readonly tool: string;
      readonly ok: boolean;
      /** The model's exit ran it (must never happen). */
      readonly exitRan: boolean;
      readonly code?: string;
      readonly rule?: string;
      /** The stored confirmation's `origins`, for a tool with destinations. */
      readonly origins?: Readonly<
        Record<string, readonly { readonly from: string; readonly tool?: string }[]>
      >;
      /** The tool's destination fields this call gave a value for. */
      readonly destinations: readonly string[];
    };

export interface UserTaskResult {
  readonly task: string;
  readonly calls: readonly CallOutcome[];
}

export interface PairResult {
  readonly userTask: string;
  readonly injectionTask: string;
  /** The injection task's calls only. */
  readonly attackCalls: readonly CallOutcome[];
}

export interface SuiteRun {
  readonly suite: string;
  readonly withRules: boolean;
  readonly userTasks: readonly UserTaskResult[];
  readonly pairs: readonly PairResult[];
  /** Pairs whose injection task has no call (travel's injection_task_6). */
  readonly pairsWithoutCalls: number;
  readonly extra: readonly PairResult[];
  readonly ledger: RanLedger;
  readonly trusted: Trusted;
}

export interface ReplayOptions {
  readonly dataDir: string;
  readonly suite: SuiteData;
  readonly withRules: boolean;
  readonly extraAttacks?: readonly ExtraAttack[];
}

export async function replaySuite({
  dataDir,
  suite,
  withRules,
  extraAttacks = [],
}: ReplayOptions): Promise<SuiteRun> {
  const ledger: RanLedger = { ran: [] };
  const registry = createSuiteRegistry({ suite, withRules, ledger });
  const benign = loadEnvironment(dataDir, suite.name);
  const trusted = TRUSTED[suite.name](benign);
  const model = new WorstCaseModel(registry, suite, trusted);

  const userTasks: UserTaskResult[] = [];
  for (const task of suite.userTasks) {
    userTasks.push({ task: task.id, calls: await model.play(task, benign, task.groundTruth) });
  }

  const pairs: PairResult[] = [];
  let pairsWithoutCalls = 0;
  for (const injection of suite.injectionTasks) {
    if (injection.groundTruth.length === 0) {
      pairsWithoutCalls += suite.userTasks.length;
      continue;
    }
    const attacked = loadEnvironment(dataDir, suite.name, importantInstructions(injection.goal));
    for (const task of suite.userTasks) pairs.push(await model.attack(task, injection, attacked));
  }

  const extra: PairResult[] = [];
  for (const attack of extraAttacks.filter((candidate) => candidate.suite === suite.name)) {
    const attacked = loadEnvironment(dataDir, suite.name, importantInstructions(attack.goal));
    attack.patch?.(attacked);
    const injection: InjectionTask = { id: attack.id, goal: attack.goal, groundTruth: attack.calls };
    for (const task of suite.userTasks) extra.push(await model.attack(task, injection, attacked));
  }
  return { suite: suite.name, withRules, userTasks, pairs, pairsWithoutCalls, extra, ledger, trusted };
}

class WorstCaseModel {
  readonly #registry: ToolRegistry<BenchContext>;
  readonly #suite: SuiteData;
  readonly #trusted: Trusted;

  constructor(registry: ToolRegistry<BenchContext>, suite: SuiteData, trusted: Trusted) {
    this.#registry = registry;
    this.#suite = suite;
    this.#trusted = trusted;
  }

  /** A user task alone: its ground truth in one run. */
  async play(
    task: UserTask,
    environment: Environment,
    calls: readonly GroundTruthCall[],
  ): Promise<CallOutcome[]> {
    const run = await this.#beginRun(task);
    const context: BenchContext = { request: task.prompt, environment };
    const outcomes: CallOutcome[] = [];
    for (const call of calls) outcomes.push(await this.#call(call, run, context));
    await this.#registry.endRun(run);
    return outcomes;
  }

  /**
   * A user task with an injection in its environment: the user task's reads up to its first write or
   * send (so the agent reads the injection), then every call of the injection task, then the rest.
   */
  async attack(task: UserTask, injection: InjectionTask, environment: Environment): Promise<PairResult> {
    const run = await this.#beginRun(task);
    const context: BenchContext = { request: task.prompt, environment };
    const firstChange = task.groundTruth.findIndex((call) => GRADES[call.function]?.sideEffect !== 'read');
    const split = firstChange === -1 ? task.groundTruth.length : firstChange;
    for (const call of task.groundTruth.slice(0, split)) await this.#call(call, run, context);
    const attackCalls: CallOutcome[] = [];
    for (const call of injection.groundTruth) attackCalls.push(await this.#call(call, run, context));
    for (const call of task.groundTruth.slice(split)) await this.#call(call, run, context);
    await this.#registry.endRun(run);
    return { userTask: task.id, injectionTask: injection.id, attackCalls };
  }

  async #beginRun(task: UserTask): Promise<string> {
    const begun = await this.#registry.beginRun({ request: task.prompt, trusted: this.#trusted });
    if (!begun.ok) throw new Error(`beginRun refused: ${begun.error}`);
    return begun.id;
  }

  async #call(call: GroundTruthCall, run: string, context: BenchContext): Promise<CallOutcome> {
    const grade = GRADES[call.function];
    if (grade === undefined) throw new Error(`no grade for ${call.function}`);
    const name = registeredName(this.#suite.name, call.function);
    const ctx = { run, context };
    if (grade.sideEffect === 'read') {
      const result = await this.#registry.invokeReadOnly(name, call.args, ctx);
      const egress = grade.egress === true;
      return result.ok
        ? { kind: 'read', tool: call.function, ok: true, egress }
        : { kind: 'read', tool: call.function, ok: false, egress, code: result.code };
    }
    // The worst-case model tries the exit first; the grade must refuse it.
    const direct = await this.#registry.invokeReadOnly(name, call.args, ctx);
    const proposed = await this.#registry.propose(name, call.args, { run, context, actor: 'agent' });
    const destinations = (grade.destinations ?? []).filter((field) => {
      const value = call.args[field];
      return value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0);
    });
    if (!proposed.ok) {
      return {
        kind: 'proposal',
        tool: call.function,
        ok: false,
        exitRan: direct.ok,
        code: proposed.code,
        ...(proposed.rule === undefined ? {} : { rule: proposed.rule }),
        destinations,
      };
    }
    const stored = await this.#registry.confirmations.get(proposed.confirmationId);
    const origins = stored.ok ? stored.confirmation.origins : undefined;
    return {
      kind: 'proposal',
      tool: call.function,
      ok: true,
      exitRan: direct.ok,
      ...(origins === undefined ? {} : { origins }),
      destinations,
    };
  }
}
