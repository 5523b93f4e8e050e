/** Robustness properties: adapters never crash on malformed steps and stay deterministic and valid. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromAnthropic, fromMiniSweAgent, fromOpenAI, fromSweAgent } from '../../src/adapters/index.js';
import { makeNormaliser } from '../../src/adapters/paths.js';
import { recogniseShell } from '../../src/adapters/shell/bash-commands.js';
import { outputLines } from '../../src/adapters/shell/view-pipeline.js';
import { checkTrace } from './trace-check.js';

const SHELL_BITS = [
  'cat a.py',
  'cat -n a.py',
  'nl -ba a.py',
  "sed -n '1,5p' a.py",
  "sed -i '3s/x/y/' a.py",
  'head -n 3 a.py',
  'tail -n +2 a.py',
  'grep -n x a.py',
  'grep -rn x .',
  'cd sub',
  'python reproduce.py',
  'pytest -q',
  "cat <<'EOF' > b.py\nprint(1)\nEOF\n",
  ' && ',
  ' || ',
  ' | ',
  '; ',
  '\n',
  "'",
  '"',
  '$(',
  ')',
  '`',
  '\\',
  '<<',
  '>',
  '>>',
  '2>&1',
  '#',
  'echo ---',
  'for f in *; do',
  'done',
];
const OUTPUT_BITS = [
  '     1\tx\n',
  '1:x\n',
  'a.py:3:x\n',
  'x\n',
  '--\n',
  '',
  'Traceback (most recent call last):\n',
  '==== 1 failed in 0.1s ====\n',
  '\n',
];
const shellCommand = fc.array(fc.constantFrom(...SHELL_BITS), { maxLength: 8 }).map((a) => a.join(''));
const output = fc
  .array(fc.oneof(fc.constantFrom(...OUTPUT_BITS), fc.string({ maxLength: 12 })), { maxLength: 8 })
  .map((a) => a.join(''));
const anyJson = fc.jsonValue({ maxDepth: 2 });

describe('robustness', () => {
  it('recogniseShell never throws and only emits well-formed views', () => {
    const normalise = makeNormaliser(['/testbed']);
    const files = { lineCount: () => undefined, knownLines: () => undefined, content: () => undefined };
    fc.assert(
      fc.property(
        shellCommand,
        output,
        fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
        (cmd, out, rc) => {
          const { effects } = recogniseShell(
            cmd,
            { text: out, lines: { lines: outputLines(out) }, returncode: rc },
            { cwd: '/testbed', normalise, files },
          );
          for (const e of effects) if (e.kind === 'view') expect(e.lines.length).toBe(e.range[1] - e.range[0] + 1);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('fromMiniSweAgent: any message list gives a valid, deterministic trace', () => {
    const content = fc.oneof(
      shellCommand.map((c) => `THOUGHT: t\n\n\`\`\`bash\n${c}\n\`\`\``),
      output.map((o) => `<returncode>0</returncode>\n<output>\n${o}</output>`),
      output,
      anyJson,
    );
    const message = fc.oneof(
      fc.record({ role: fc.constantFrom('system', 'user', 'assistant', 'tool'), content }),
      anyJson,
    );
    fc.assert(
      fc.property(fc.array(message, { maxLength: 12 }), (messages) => {
        const a = fromMiniSweAgent({ messages });
        checkTrace(a);
        expect(fromMiniSweAgent({ messages })).toEqual(a);
      }),
      { numRuns: 150 },
    );
  });

  it('fromSweAgent: any step list gives a valid trace', () => {
    const action = fc.oneof(
      shellCommand,
      fc.constantFrom(
        'open a.py',
        'edit 1:2\nx\nend_of_edit',
        "edit 'a' 'b'",
        'create n.py',
        'insert x',
        'submit',
        'goto 5',
      ),
    );
    const step = fc.oneof(
      fc.record({
        action,
        observation: fc.oneof(output, fc.constant('[File: /r/a.py (3 lines total)]\n1:a\n2:b\n3:c\n')),
        thought: fc.string(),
      }),
      anyJson,
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 10 }), (trajectory) => {
        checkTrace(fromSweAgent({ trajectory }));
      }),
      { numRuns: 150 },
    );
  });

  it('fromOpenAI / fromAnthropic: any message list gives a valid trace with paired calls', () => {
    const id = fc.constantFrom('c1', 'c2', 'c3');
    const openai = fc.oneof(
      fc.record({ role: fc.constantFrom('system', 'user'), content: fc.string() }),
      fc.record({
        role: fc.constant('assistant'),
        content: fc.option(fc.string(), { nil: null }),
        tool_calls: fc.array(
          fc.record({
            id,
            type: fc.constant('function'),
            function: fc.record({
              name: fc.constantFrom('bash', 'str_replace_editor', 'x'),
              arguments: fc.oneof(
                shellCommand.map((command) => JSON.stringify({ command })),
                fc.string(),
              ),
            }),
          }),
          { maxLength: 3 },
        ),
      }),
      fc.record({ role: fc.constant('tool'), tool_call_id: id, content: output }),
      anyJson,
    );
    const anthropic = fc.oneof(
      fc.record({
        role: fc.constant('user'),
        content: fc.oneof(
          fc.string(),
          fc.array(
            fc.oneof(
              fc.record({ type: fc.constant('tool_result'), tool_use_id: id, content: output, is_error: fc.boolean() }),
              fc.record({ type: fc.constant('text'), text: fc.string() }),
            ),
            { maxLength: 3 },
          ),
        ),
      }),
      fc.record({
        role: fc.constant('assistant'),
        content: fc.array(
          fc.oneof(
            fc.record({
              type: fc.constant('tool_use'),
              id,
              name: fc.constantFrom('bash', 'str_replace_based_edit_tool'),
              input: fc.record({ command: shellCommand }),
            }),
            fc.record({ type: fc.constant('text'), text: fc.string() }),
          ),
          { maxLength: 3 },
        ),
      }),
      anyJson,
    );
    fc.assert(
      fc.property(fc.array(openai, { maxLength: 10 }), (m) => checkTrace(fromOpenAI(m))),
      { numRuns: 150 },
    );
    fc.assert(
      fc.property(fc.array(anthropic, { maxLength: 10 }), (m) => checkTrace(fromAnthropic(m))),
      { numRuns: 150 },
    );
  });
});
