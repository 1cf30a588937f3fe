/**
 * The local runtime in a process of its own (test/support/crash-runtime.ts), for tests that
 * kill it with SIGKILL mid-run and start it again on the same data folder.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = join(__dirname, '..', '..');

export interface RuntimeProcess {
  /** The API's base URL. */
  api: string;
  /** SIGKILL, and resolves once the process is gone (nothing when it is gone already). */
  kill(): Promise<void>;
}

/** `env`: DATA_DIR, and HANG_TASK/HANG_MODULE/HANG_DIR to replace one task (crash-runtime.ts). */
export async function startRuntimeProcess(env: Record<string, string>): Promise<RuntimeProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test', 'support', 'crash-runtime.ts')], {
    cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  for await (const line of createInterface({ input: child.stdout! })) {
    if (line.startsWith('{')) return { api: (JSON.parse(line) as { api: string }).api, kill };
  }
  throw new Error('the runtime process ended before it served');
}

/** A business registered and onboarded on `dataDir` by an in-process runtime that then stops cleanly. */
export async function onboardOnDataDir(dataDir: string, org: string, business: { name: string; url: string }): Promise<void> {
  const { startTestStack } = await import('./stack');
  const stack = await startTestStack({ LOG_LEVEL: 'error' }, { dataDir, workflows: { retryWithoutDelay: true } });
  try {
    const token = await stack.token(org);
    const created = await stack.call('POST', '/api/business', { token, body: business });
    if (created.status !== 201) throw new Error(`registering ${org}: ${created.status} ${JSON.stringify(created.body)}`);
    const onboarding = await stack.call('POST', '/api/onboarding/generate-all', { token, body: {} });
    await stack.workflows.finished(onboarding.body.execution_id);
    const status = (await stack.call('GET', '/api/onboarding/status', { token })).body;
    if (status.status !== 'succeeded') throw new Error(`onboarding ${org} ended ${status.status}`);
  } finally {
    await stack.close();
  }
}
