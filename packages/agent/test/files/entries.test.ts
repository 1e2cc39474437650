import { describe, expect, it } from 'vitest';
import { parseFrontMatter } from '../../src/files/front-matter.ts';
import type { FrontMatterDocument } from '../../src/files/front-matter.ts';
import { readPluginEntry } from '../../src/files/plugin-entry.ts';
import { readAgentSkillEntry, readSkillEntry } from '../../src/files/skill-entry.ts';
import { readToolEntry } from '../../src/files/tool-entry.ts';

function document(text: string): FrontMatterDocument {
  const parsed = parseFrontMatter(text);
  if (!parsed.ok) throw new Error(parsed.failure.reason);
  return parsed.value;
}

function errorsOf(result: { ok: boolean; errors?: readonly { message: string }[] }): string {
  return (result.errors ?? []).map((issue) => issue.message).join('\n');
}

describe('tool index.md', () => {
  const valid = `---
version: 1
name: grep
mutating: true
parameters:
  - name: pattern
    type: string
    description: What to look for
    required: true
  - name: limit
    type: integer
  - name: mode
    type: string
    enum: [fast, full]
  - name: paths
    type: array
    items: { type: string }
execution:
  command: ./run.sh
  args: [--color, never, 3]
  timeout_ms: 5000
  working_directory: data
---
Searches files for a pattern.
`;

  it('turns the parameters list into a JSON Schema and keeps the execution settings', () => {
    const result = readToolEntry(document(valid), 'grep');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toEqual({
      name: 'grep',
      description: 'Searches files for a pattern.',
      mutating: true,
      parameters: {
        type: 'object',
        properties: {
          pattern: { type: 'string', description: 'What to look for' },
          limit: { type: 'integer' },
          mode: { type: 'string', enum: ['fast', 'full'] },
          paths: { type: 'array', items: { type: 'string' } },
        },
        required: ['pattern'],
        additionalProperties: false,
      },
      execution: {
        command: './run.sh',
        args: ['--color', 'never', '3'],
        timeoutMs: 5000,
        workingDirectory: 'data',
      },
    });
    expect(result.warnings).toEqual([]);
  });

  it('defaults mutating to false and parameters to an empty object schema', () => {
    const result = readToolEntry(
      document('---\nversion: 1\nname: t\nexecution: { command: x }\n---\nDoes t.'),
      't',
    );
    expect(result.ok && result.value.mutating).toBe(false);
    expect(result.ok && result.value.parameters).toEqual({
      type: 'object',
      properties: {},
      additionalProperties: false,
    });
  });

  it('accepts a JSON Schema mapping as parameters', () => {
    const result = readToolEntry(
      document(
        '---\nversion: 1\nname: t\nparameters:\n  type: object\n  properties: { a: { type: object } }\nexecution: { command: x }\n---\nDoes t.',
      ),
      't',
    );
    expect(result.ok && result.value.parameters).toEqual({
      type: 'object',
      properties: { a: { type: 'object' } },
    });
  });

  it.each([
    ['a missing version', '---\nname: t\nexecution: { command: x }\n---\nD', /`version` is missing/],
    [
      'version 2 (unsupported format version)',
      '---\nversion: 2\nname: t\nexecution: { command: x }\n---\nD',
      /must be 1.*unsupported/,
    ],
    ['version as text', '---\nversion: "1"\nname: t\nexecution: { command: x }\n---\nD', /must be 1/],
    [
      'a name that differs from the folder',
      '---\nversion: 1\nname: other\nexecution: { command: x }\n---\nD',
      /folder is named "t"/,
    ],
    ['a missing execution', '---\nversion: 1\nname: t\n---\nD', /`execution` is missing/],
    [
      'an empty command',
      '---\nversion: 1\nname: t\nexecution: { command: "" }\n---\nD',
      /`execution.command` is empty/,
    ],
    [
      'args that are not a list',
      '---\nversion: 1\nname: t\nexecution: { command: x, args: "-v" }\n---\nD',
      /must be a list/,
    ],
    [
      'a mapping inside args',
      '---\nversion: 1\nname: t\nexecution: { command: x, args: [{a: 1}] }\n---\nD',
      /args\[0\]` must be text/,
    ],
    [
      'a zero timeout',
      '---\nversion: 1\nname: t\nexecution: { command: x, timeout_ms: 0 }\n---\nD',
      /timeout_ms/,
    ],
    [
      'a fractional timeout',
      '---\nversion: 1\nname: t\nexecution: { command: x, timeout_ms: 1.5 }\n---\nD',
      /timeout_ms/,
    ],
    [
      'mutating as text',
      '---\nversion: 1\nname: t\nmutating: "yes"\nexecution: { command: x }\n---\nD',
      /true or false/,
    ],
    [
      'an unknown parameter type',
      '---\nversion: 1\nname: t\nparameters: [{ name: a, type: str }]\nexecution: { command: x }\n---\nD',
      /must be one of/,
    ],
    [
      'a parameter without a name',
      '---\nversion: 1\nname: t\nparameters: [{ type: string }]\nexecution: { command: x }\n---\nD',
      /name` is missing/,
    ],
    [
      'a parameter declared twice',
      '---\nversion: 1\nname: t\nparameters: [{ name: a, type: string }, { name: a, type: string }]\nexecution: { command: x }\n---\nD',
      /declared twice/,
    ],
    [
      'items on a string parameter',
      '---\nversion: 1\nname: t\nparameters: [{ name: a, type: string, items: { type: string } }]\nexecution: { command: x }\n---\nD',
      /only allowed on a parameter of type array/,
    ],
    [
      'an empty enum',
      '---\nversion: 1\nname: t\nparameters: [{ name: a, type: string, enum: [] }]\nexecution: { command: x }\n---\nD',
      /non-empty list/,
    ],
    [
      'a schema mapping without type object',
      '---\nversion: 1\nname: t\nparameters: { type: string }\nexecution: { command: x }\n---\nD',
      /type: object/,
    ],
    [
      'no description at all',
      '---\nversion: 1\nname: t\nexecution: { command: x }\n---\n   \n',
      /no description/,
    ],
  ])('skips %s with a reason', (_label, text, reason) => {
    const result = readToolEntry(document(text), 't');
    expect(result.ok).toBe(false);
    expect(errorsOf(result)).toMatch(reason);
  });

  it('names the line of the offending field', () => {
    const result = readToolEntry(
      document('---\nversion: 1\nname: t\nexecution:\n  command: x\n  timeout_ms: -5\n---\nD'),
      't',
    );
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[0]?.line).toBe(6);
  });

  it('reports every problem of a file at once', () => {
    const result = readToolEntry(
      document('---\nversion: 3\nname: x\nmutating: 1\nexecution: { command: "" }\n---\nD'),
      't',
    );
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.length).toBeGreaterThanOrEqual(4);
  });

  it('warns about unknown fields and still loads', () => {
    const result = readToolEntry(
      document('---\nversion: 1\nname: t\ncolour: red\nexecution: { command: x, shell: true }\n---\nD'),
      't',
    );
    expect(result.ok).toBe(true);
    expect(result.warnings.map((warning) => warning.message)).toEqual([
      'unknown field `colour` ignored',
      'unknown field `shell` in `execution` ignored',
    ]);
  });

  it('uses a front matter description only when the body is empty', () => {
    const result = readToolEntry(
      document('---\nversion: 1\nname: t\ndescription: From the field.\nexecution: { command: x }\n---\n'),
      't',
    );
    expect(result.ok && result.value.description).toBe('From the field.');
  });
});

describe('skill index.md', () => {
  it('reads every field with defaults', () => {
    const result = readSkillEntry(
      document('---\nversion: 1\nname: commit\ndescription: Write a commit message.\n---\nRead the diff.\n'),
      'commit',
    );
    expect(result.ok && result.value).toEqual({
      name: 'commit',
      displayName: 'commit',
      description: 'Write a commit message.',
      prompt: 'Read the diff.',
      requiredTools: [],
      allowImplicitInvocation: false,
    });
  });

  it.each([
    ['a missing description', '---\nversion: 1\nname: s\n---\nPrompt', /`description` is missing/],
    ['an empty prompt', '---\nversion: 1\nname: s\ndescription: d\n---\n', /no prompt/],
    [
      'required_tools that is not a list',
      '---\nversion: 1\nname: s\ndescription: d\nrequired_tools: grep\n---\nP',
      /must be a list/,
    ],
    [
      'allow_implicit_invocation as text',
      '---\nversion: 1\nname: s\ndescription: d\nallow_implicit_invocation: "no"\n---\nP',
      /true or false/,
    ],
  ])('skips %s', (_label, text, reason) => {
    const result = readSkillEntry(document(text), 's');
    expect(result.ok).toBe(false);
    expect(errorsOf(result)).toMatch(reason);
  });
});

describe('SKILL.md (Agent Skills format)', () => {
  const common = `---
name: pdf-processing
description: Extract text and tables from PDF files. Use when working with PDFs.
license: Apache-2.0
compatibility: Requires pdftotext
metadata:
  author: example-org
  version: "1.0"
allowed-tools: Bash(pdftotext:*) Read
---

# PDF processing

Run \`pdftotext input.pdf -\` and summarise. See [the reference](reference.md).
`;

  it('loads a skill from the common format unchanged, listing it for the model', () => {
    const result = readAgentSkillEntry(document(common), 'pdf-processing');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.warnings).toEqual([]);
    expect(result.value).toMatchObject({
      name: 'pdf-processing',
      displayName: 'pdf-processing',
      description: 'Extract text and tables from PDF files. Use when working with PDFs.',
      requiredTools: [],
      allowImplicitInvocation: true,
    });
    expect(result.value.prompt).toMatch(/^# PDF processing/);
  });

  it('takes the folder name when name is absent and the first paragraph when description is', () => {
    const result = readAgentSkillEntry(
      document('---\ndisable-model-invocation: true\n---\n# Deploy\n\nShip it carefully.\n'),
      'deploy',
    );
    expect(result.ok && result.value).toMatchObject({
      name: 'deploy',
      description: 'Deploy',
      allowImplicitInvocation: false,
    });
  });

  it('a name that differs from the folder loads under the folder name with a warning, shown as the display name', () => {
    const result = readAgentSkillEntry(document(common), 'pdf');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toMatchObject({ name: 'pdf', displayName: 'pdf-processing' });
    expect(result.warnings.map((warning) => warning.message).join('\n')).toMatch(
      /folder is named "pdf"; the skill loads as "pdf"/,
    );
    expect(result.warnings[0]?.line).toBe(2);
  });

  it('a plugin-shipped SKILL.md with version 0.1.0 and a display-style name loads (the version is the skill’s own)', () => {
    const result = readAgentSkillEntry(
      document(
        '---\nname: Frontend Design\ndescription: Create distinctive, production-grade frontend interfaces.\nversion: 0.1.0\nlicense: MIT\n---\nUse bold typography.\n',
      ),
      'frontend-design',
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toMatchObject({ name: 'frontend-design', displayName: 'Frontend Design' });
    expect(result.warnings).toHaveLength(1);
  });

  it('ignores a non-integer version, and any version: SKILL.md has no format version', () => {
    for (const version of ['0.1.0', '1.2', '2', '"1.0.0"']) {
      const result = readAgentSkillEntry(document(`---\nversion: ${version}\ndescription: d\n---\nP`), 's');
      expect(result.ok, version).toBe(true);
      expect(result.warnings, version).toEqual([]);
    }
  });

  it('index.md keeps the strict rule: a name that differs from the folder skips the skill', () => {
    const result = readSkillEntry(document('---\nversion: 1\nname: other\ndescription: d\n---\nP'), 's');
    expect(result.ok).toBe(false);
    expect(errorsOf(result)).toMatch(/folder is named "s"; they must be equal/);
  });
});

describe('plugin index.md', () => {
  it('reads hooks, config and enabled', () => {
    const text = `---
version: 1
id: guard
display_name: Guard
enabled: false
config: { blocked: [rm] }
hooks:
  BeforeToolUse: { command: ./guard.py, timeout_ms: 2000 }
  SessionStart: { command: node, args: [./start.js] }
---
Blocks dangerous tools.
`;
    const result = readPluginEntry(document(text), 'guard');
    expect(result.ok && result.value).toEqual({
      id: 'guard',
      displayName: 'Guard',
      description: 'Blocks dangerous tools.',
      enabled: false,
      config: { blocked: ['rm'] },
      hooks: {
        BeforeToolUse: { command: './guard.py', args: [], timeoutMs: 2000 },
        SessionStart: { command: 'node', args: ['./start.js'] },
      },
    });
  });

  it('warns about a misspelt hook and loads the others', () => {
    const result = readPluginEntry(
      document(
        '---\nversion: 1\nid: p\ndisplay_name: P\nhooks:\n  BeforeToolUs: { command: x }\n  TurnEnd: { command: y }\n---\n',
      ),
      'p',
    );
    expect(result.ok && Object.keys(result.value.hooks)).toEqual(['TurnEnd']);
    expect(result.warnings[0]?.message).toMatch(/unknown hook `BeforeToolUs`/);
    expect(result.warnings[0]?.line).toBe(6);
  });

  it.each([
    ['a missing display_name', '---\nversion: 1\nid: p\n---\n', /`display_name` is missing/],
    [
      'an id that differs from the folder',
      '---\nversion: 1\nid: q\ndisplay_name: P\n---\n',
      /folder is named "p"/,
    ],
    ['a name field instead of id', '---\nversion: 1\nname: p\ndisplay_name: P\n---\n', /`id` is missing/],
    [
      'config that is a list',
      '---\nversion: 1\nid: p\ndisplay_name: P\nconfig: [1]\n---\n',
      /must be a mapping/,
    ],
    [
      'a hook without a command',
      '---\nversion: 1\nid: p\ndisplay_name: P\nhooks: { TurnEnd: { args: [] } }\n---\n',
      /`hooks.TurnEnd.command` is missing/,
    ],
    ['enabled as text', '---\nversion: 1\nid: p\ndisplay_name: P\nenabled: "off"\n---\n', /true or false/],
  ])('skips %s', (_label, text, reason) => {
    const result = readPluginEntry(document(text), 'p');
    expect(result.ok).toBe(false);
    expect(errorsOf(result)).toMatch(reason);
  });
});
