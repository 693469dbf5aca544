import * as api from 'graded-tools';
import { describe, expect, it } from 'vitest';

describe('the root entry', () => {
  it('exports exactly these values (adding one is an API decision)', () => {
    expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
      [
        "CONFIRMATION_STATUSES",
        "MAX_WIRE_NAME_LENGTH",
        "SIDE_EFFECTS",
        "TOOL_NAME_PATTERN",
        "ToolDefinitionError",
        "ToolRegistry",
        "WIRE_NAME_PATTERN",
        "buildAccessReport",
        "canonicalJson",
        "createAjvValidator",
        "createMemoryStore",
        "decodeCursor",
        "definePlan",
        "defineTool",
        "describeDecision",
        "describeEffect",
        "encodeCursor",
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
        "payloadDigest",
        "refusalFor",
        "runPlan",
        "toWireName",
        "validatePlan",
      ]
    `);
  });
});
