import * as api from 'graded-tools';
import * as storeApi from 'graded-tools/store';
import { describe, expect, it } from 'vitest';

describe('the root entry', () => {
  it('exports exactly these values (adding one is an API decision)', () => {
    expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
      [
        "AUDIT_SEQUENCE_BOUND_MS",
        "CONFIRMATION_STATUSES",
        "MAX_WIRE_NAME_LENGTH",
        "SIDE_EFFECTS",
        "TOOL_NAME_PATTERN",
        "ToolDefinitionError",
        "ToolRegistry",
        "WIRE_NAME_PATTERN",
        "buildAccessReport",
        "bundleDigest",
        "canonicalJson",
        "createAjvValidator",
        "createCfworkerValidator",
        "createMemoryStore",
        "definePlan",
        "defineTool",
        "describeDecision",
        "describeEffect",
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

describe('graded-tools/store', () => {
  it('exports exactly these values: the store contract is types, and these helpers for its authors', () => {
    expect(Object.keys(storeApi).sort()).toMatchInlineSnapshot(`
      [
        "decodeCursor",
        "encodeCursor",
        "hasCapability",
      ]
    `);
  });
});
