import type { ToolEntry } from '../tools/tool-table.js';
import type { Step } from './call.js';
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
  return ({ tool }) => {
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
