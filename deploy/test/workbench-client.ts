import { spawn, type ChildProcess } from 'node:child_process';

/** A `youyou serve` process started from the executable, with its login URL. */
export interface ServedExecutable {
  url: string;
  token: string;
  loginUrl: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts `<executable> serve` and waits for the login URL it prints; `prefix` starts it under an
 * emulator (deploy/sea/emulator.ts).
 */
export async function serveExecutable(
  executable: string,
  argv: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; prefix?: readonly string[] },
): Promise<ServedExecutable> {
  const [command = executable, ...leading] = [...(options.prefix ?? []), executable];
  const child = spawn(command, [...leading, 'serve', '--port', '0', ...argv], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const loginUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the executable did not start:\n${output}`)), 30_000);
    const check = (): void => {
      const match = /(http:\/\/\S+\/\?token=\S+)/.exec(output);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', check);
    child.once('exit', () => {
      clearTimeout(timer);
      reject(new Error(`the executable exited:\n${output}`));
    });
  });
  const parsed = new URL(loginUrl);
  return {
    url: parsed.origin,
    token: parsed.searchParams.get('token') ?? '',
    loginUrl,
    process: child,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** One authenticated JSON call; throws with the body on a status ≥ 300. */
export async function api<T>(
  base: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

/** The bytes of an authenticated GET. */
export async function download(base: string, token: string, path: string): Promise<Buffer> {
  const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
  if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}

/** Polls a run until it is no longer pending or running. */
export async function settledRun(base: string, token: string, runId: string): Promise<{ status: string }> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const run = await api<{ status: string }>(base, token, 'GET', `/api/runs/${runId}`);
    if (!['pending', 'running', 'waiting_hitl'].includes(run.status)) return run;
    if (Date.now() > deadline) throw new Error(`run ${runId} is still ${run.status}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}
