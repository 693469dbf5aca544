import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

describe('npm start (examples/support-desk.ts)', () => {
  it('walks through the support desk, exits 0, writes nothing, and sends the agent’s proposal once, after a person confirms', async () => {
    const { stdout } = await promisify(execFile)(
      join(root, 'node_modules', '.bin', 'tsx'),
      ['examples/support-desk.ts'],
      {
        cwd: root,
        timeout: 30_000,
      },
    );
    expect(stdout).toContain('== 2. What the model is shown');
    const shown = stdout.split('== 3.')[0]?.split('== 2.')[1] ?? '';
    expect(shown).toContain('kb__search');
    expect(shown).not.toMatch(/^\s+ticket__submit/m);
    expect(stdout).toMatch(/ticket__submit\(.*\n\s+→ refused\/failed\s+UNKNOWN_TOOL/);
    expect(stdout).toMatch(/message__send\(.*\n\s+→ refused\/failed\s+UNKNOWN_TOOL/);
    expect(stdout).toContain('INVALID_ARGUMENTS');
    expect(stdout).toMatch(
      /invoke from the agent's run → refused\/failed {2}SEND_REQUIRES_CONFIRM: .*registry\.propose/,
    );
    expect(stdout).toContain('propose  → needs a person  payload to confirm');
    expect(stdout).toContain('Messages actually sent so far: 0');
    expect(stdout.match(/confirm {2}→ delivered/g)).toHaveLength(1);
    expect(stdout.match(/confirm {2}→ ALREADY_DECIDED/g)).toHaveLength(1);
    expect(stdout).toMatch(/model +ticket\.submit +refused NOT_READ_ONLY/);
    expect(stdout).toContain('confirmation created by agent:desk-bot');
    expect(stdout).toContain('confirmation confirmed by lead-li');
    expect(stdout).toContain('confirmation delivered');
    expect(stdout).toMatch(/back to the agent: Sent at \d{4}-/);
    expect(stdout).toContain('Tickets written: 0. Messages sent: 1.');
    expect(stdout.trimEnd().split('\n').at(-1)).toContain('`npm run console`');
  });
});
