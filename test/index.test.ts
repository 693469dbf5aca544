import * as api from 'graded-tools';
import { describe, expect, it } from 'vitest';

describe('the root entry', () => {
  it('exports exactly these values (adding one is an API decision)', () => {
    expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
      [
        "MAX_WIRE_NAME_LENGTH",
        "SIDE_EFFECTS",
        "TOOL_NAME_PATTERN",
        "ToolDefinitionError",
        "ToolRegistry",
        "WIRE_NAME_PATTERN",
        "buildAccessReport",
        "createAjvValidator",
        "definePlan",
        "defineTool",
        "formatAccessReport",
        "formatMessage",
        "fromWireName",
        "getDefaultRegistry",
        "isAutonomous",
        "isFlagGranted",
        "isLegalWireName",
        "isModelCallable",
        "isSendTool",
        "isValidToolName",
        "refusalFor",
        "runPlan",
        "toWireName",
        "validatePlan",
      ]
    `);
  });
});
