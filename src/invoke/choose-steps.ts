import type { ToolEntry } from '../tools/tool-table.js';
import { Call, type Step } from './call.js';
import { resumeSteps, runSteps } from './run-steps.js';

/**
 * The invoke path's fast paths, read when a tool's steps are chosen (its first call). Internal: the
 * differential test turns one off to prove it answers exactly as the plain list does.
 */
export const fastPaths = { plainRead: true };

import { agentRun } from './steps/agent-run.js';
import { argumentsStep } from './steps/arguments.js';
import { askOrRun } from './steps/ask-or-run.js';
import { destinations } from './steps/destinations.js';
import { gates } from './steps/gates.js';
import { rules } from './steps/rules.js';
import { runTool } from './steps/run-tool.js';
import type { StepKit } from './steps/step-kit.js';
import { validateJsonSchema, validateStandardSchema } from './steps/validate.js';

/** A tool's two lists: every step of a call, and `check`'s, which stops before the rules. */
export interface ToolSteps {
  readonly call: readonly Step[];
  readonly check: readonly Step[];
}

/**
 * Chooses, once per registered tool, the steps its calls take: a read without rules, destinations or
 * egress goes gates → arguments → validate → (its agent run) → run, and pays for nothing else.
 */
export function stepChooser(kit: StepKit): (entry: ToolEntry) => ToolSteps {
  const step = {
    gates: gates(kit),
    arguments: argumentsStep(kit),
    validateJson: validateJsonSchema(kit),
    validateStandardDeferring: validateStandardSchema(kit, true),
    validateStandard: validateStandardSchema(kit, false),
    agentRun: agentRun(kit),
    destinations: destinations(kit),
    rules: rules(kit),
    run: runTool(kit),
    askOrRun: askOrRun(kit),
  };
  // A plain read (JSON Schema, no rules, destinations or egress): its five steps called in one
  // function, so a call pays no loop over the list; a step that answers ends it, one that waits
  // hands the rest of the list to the runner.
  const plain: readonly Step[] = [step.gates, step.arguments, step.validateJson, step.agentRun, step.run];
  const plainRead: Step = (call) => {
    // Each step at its own call site (a loop over the list would make one site call them all).
    let next = step.gates(call);
    if (next === call) next = step.arguments(call);
    else return resumed(next, call, 1);
    if (next === call) next = step.validateJson(call);
    else return resumed(next, call, 2);
    if (next === call) next = step.agentRun(call);
    else return resumed(next, call, 3);
    return next === call ? step.run(call) : resumed(next, call, 4);
  };
  const resumed = (next: ReturnType<Step>, call: Call, from: number) => {
    if (next instanceof Promise) return resumeSteps(plain, next, call, kit.answers, from);
    return next instanceof Call ? runSteps(plain, next, kit.answers, from) : next;
  };
  return ({ tool }) => {
    if (
      fastPaths.plainRead &&
      tool.info.sideEffect === 'read' &&
      tool.rules.length === 0 &&
      tool.standard === undefined &&
      tool.egress === undefined &&
      tool.info.destinations === undefined
    )
      return { call: [plainRead], check: plain.slice(0, 4) };
    const hasRules = tool.rules.length > 0;
    const upToRules = (deferAsync: boolean): Step[] => [
      step.gates,
      step.arguments,
      tool.standard === undefined
        ? step.validateJson
        : deferAsync
          ? step.validateStandardDeferring
          : step.validateStandard,
      step.agentRun,
      ...(tool.egress !== undefined || tool.info.destinations !== undefined ? [step.destinations] : []),
    ];
    return {
      call: [
        ...upToRules(!hasRules && tool.egress === undefined),
        ...(hasRules ? [step.rules] : []),
        tool.info.sideEffect === 'read' && !hasRules ? step.run : step.askOrRun,
      ],
      check: upToRules(false),
    };
  };
}
