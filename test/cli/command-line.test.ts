import { describe, expect, it } from 'vitest';
import { answerUnread, REGISTRY_MODULE, readCommandLine } from '../../src/cli/command-line.js';

describe('readCommandLine', () => {
  const kind = {
    missing: 'Give a kind.',
    refuse: (v: string) => (v === 'a' ? undefined : `No kind "${v}".`),
  };
  const read = (args: string[]) => readCommandLine(args, { n: { type: 'string' } }, [kind, REGISTRY_MODULE]);

  it('reads options and positionals, and -h or --help anywhere as help', () => {
    expect(read(['a', 'm.mjs', '--n', '3'])).toEqual({ values: { n: '3' }, positionals: ['a', 'm.mjs'] });
    expect(read(['-h'])).toBe('help');
    expect(read(['a', '--help', 'x', 'y', 'z'])).toBe('help');
  });

  it('says in one line why a command line could not be read: positionals in order, then extras', () => {
    expect(read([])).toEqual({ usage: 'Give a kind.' });
    expect(read(['b'])).toEqual({ usage: 'No kind "b".' });
    expect(read(['a'])).toEqual({ usage: 'Give the registry module.' });
    expect(read(['a', 'm.mjs', 'x', 'y'])).toEqual({ usage: 'Unexpected: x y' });
    expect(read(['a', 'm.mjs', '--nope'])).toMatchObject({
      usage: expect.stringMatching(/Unknown option '--nope'/),
    });
  });
});

describe('answerUnread', () => {
  it('prints help on out (exit 0), and a usage error with the help on error (exit 2)', () => {
    const out: string[] = [];
    const error: string[] = [];
    const help = {
      command: 'x',
      usage: 'Usage: x',
      out: (t: string) => out.push(t),
      error: (t: string) => error.push(t),
    };
    expect(answerUnread('help', help)).toBe(0);
    expect(answerUnread({ usage: 'Give a kind.' }, help)).toBe(2);
    expect(out).toEqual(['Usage: x']);
    expect(error).toEqual(['graded-tools x: Give a kind.\n\nUsage: x']);
  });
});
