import { describe, expect, it } from 'vitest';
import { quoteForCmd, resolveScriptCommand } from '../../src/files/command-resolution.ts';

const none = (): boolean => false;

describe('resolveScriptCommand on POSIX', () => {
  const base = { componentDirectory: '/home/me/.youyou/tools/t', platform: 'linux' as const };

  it('resolves relative commands from the component folder and leaves PATH names alone', () => {
    expect(resolveScriptCommand({ ...base, command: './run.sh', args: [], exists: none }).file).toBe(
      '/home/me/.youyou/tools/t/run.sh',
    );
    expect(resolveScriptCommand({ ...base, command: 'bin/run', args: [], exists: none }).file).toBe(
      '/home/me/.youyou/tools/t/bin/run',
    );
    expect(resolveScriptCommand({ ...base, command: '../shared/x', args: [], exists: none }).file).toBe(
      '/home/me/.youyou/tools/shared/x',
    );
    expect(resolveScriptCommand({ ...base, command: 'python3', args: [], exists: none }).file).toBe(
      'python3',
    );
    expect(resolveScriptCommand({ ...base, command: '/usr/bin/env', args: [], exists: none }).file).toBe(
      '/usr/bin/env',
    );
  });

  it('resolves a bare command that names a file of the folder', () => {
    const exists = (path: string): boolean => path === '/home/me/.youyou/tools/t/run.sh';
    expect(resolveScriptCommand({ ...base, command: 'run.sh', args: [], exists }).file).toBe(
      '/home/me/.youyou/tools/t/run.sh',
    );
  });

  it('resolves ./ arguments and bare arguments naming folder files, and passes the rest through', () => {
    const exists = (path: string): boolean => path === '/home/me/.youyou/tools/t/script.py';
    const resolved = resolveScriptCommand({
      ...base,
      command: 'python3',
      args: ['script.py', './lib.py', '../x', '-v', '--name', 'hello', '/abs', ''],
      exists,
    });
    expect(resolved).toEqual({
      file: 'python3',
      args: [
        '/home/me/.youyou/tools/t/script.py',
        '/home/me/.youyou/tools/t/lib.py',
        '/home/me/.youyou/tools/x',
        '-v',
        '--name',
        'hello',
        '/abs',
        '',
      ],
      windowsVerbatimArguments: false,
    });
  });

  it('never routes .cmd files through cmd.exe off Windows', () => {
    expect(resolveScriptCommand({ ...base, command: './run.cmd', args: ['a b'], exists: none })).toEqual({
      file: '/home/me/.youyou/tools/t/run.cmd',
      args: ['a b'],
      windowsVerbatimArguments: false,
    });
  });
});

describe('resolveScriptCommand on Windows', () => {
  const base = {
    componentDirectory: 'C:\\Users\\me\\.youyou\\tools\\t',
    platform: 'win32' as const,
    exists: none,
  };

  it('runs .cmd and .bat through cmd.exe with a quoted, escaped command line', () => {
    expect(resolveScriptCommand({ ...base, command: '.\\run.cmd', args: ['a b', 'x&y'] })).toEqual({
      file: 'cmd.exe',
      args: ['/d', '/s', '/c', '"C:\\Users\\me\\.youyou\\tools\\t\\run.cmd ^^^"a^^^ b^^^" ^^^"x^^^&y^^^""'],
      windowsVerbatimArguments: true,
    });
    const bat = resolveScriptCommand({
      ...base,
      command: 'C:\\tools\\Build.BAT',
      args: [],
      comSpec: 'C:\\Windows\\system32\\cmd.exe',
    });
    expect(bat.file).toBe('C:\\Windows\\system32\\cmd.exe');
    expect(bat.args).toEqual(['/d', '/s', '/c', '"C:\\tools\\Build.BAT"']);
  });

  it('escapes a folder path with spaces and parentheses', () => {
    const resolved = resolveScriptCommand({
      ...base,
      componentDirectory: 'C:\\Program Files (x86)\\t',
      command: './go.bat',
      args: [],
    });
    expect(resolved.args[3]).toBe('"C:\\Program^ Files^ ^(x86^)\\t\\go.bat"');
  });

  it('runs other files directly, resolving backslash-relative paths', () => {
    expect(
      resolveScriptCommand({ ...base, command: 'bin\\tool.exe', args: ['.\\data.txt', 'plain'] }),
    ).toEqual({
      file: 'C:\\Users\\me\\.youyou\\tools\\t\\bin\\tool.exe',
      args: ['C:\\Users\\me\\.youyou\\tools\\t\\data.txt', 'plain'],
      windowsVerbatimArguments: false,
    });
    expect(resolveScriptCommand({ ...base, command: 'node', args: [] }).file).toBe('node');
  });
});

describe('quoteForCmd', () => {
  it.each([
    ['plain', false, '^"plain^"'],
    ['a b', false, '^"a^ b^"'],
    ['say "hi"', false, '^"say^ \\^"hi\\^"^"'],
    ['trailing\\', false, '^"trailing\\\\^"'],
    ['back\\"slash', false, '^"back\\\\\\^"slash^"'],
    ['100%', false, '^"100^%^"'],
    ['', false, '^"^"'],
    ['a|b', true, '^^^"a^^^|b^^^"'],
  ])('quotes %j (batch: %s)', (argument, batch, expected) => {
    expect(quoteForCmd(argument, batch)).toBe(expected);
  });
});
