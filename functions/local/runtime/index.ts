/**
 * The whole local stack in one process: embedded database, dev identity provider,
 * API server over the route manifest and the AI-site host. `bin/local.ts` (npm start)
 * and the end-to-end tests both start it from here.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../../config';
import type { Clock } from '../../ports';
import { buildContainer, setContainer, type Container } from '../../container';
import { createDocumentClient } from '../../adapters/dynamodb/client';
import { createWorkflowExecutionRecords } from '../../adapters/dynamodb/workflow-execution-records';
import { send, startApiServer, type RunningServer } from './api-server';
import { ensureTable, startEmbeddedDatabase, type EmbeddedDatabase } from './database';
import { JWKS_PATH, loadDevIdp, type DevIdp } from '../fakes/idp-tokens';
import { cdnOf } from '../../engines/cdn';
import { startCdnProxy } from './cdn-proxy';
import { startSitesHost } from './sites-host';
import { startDailyTimer } from './daily-timer';
import { settleInterruptedDailyExecution } from '../../app/daily/interrupted';
import { sweepUnfinishedReleases } from '../../adapters/local/fs-site-store';
import { createFsBuckets } from '../../adapters/local/fs-buckets';
import { createLocalWorkflows, type LocalWorkflowOptions, type LocalWorkflows } from './workflow-runner';

export const DEV_API_KEY = 'dev-api-key-change-me';
export const DEV_WEBHOOK_SECRET = 'whsec_ZGV2LXdlYmhvb2stc2VjcmV0LWNoYW5nZS1tZQ==';

export interface LocalStackOptions {
  /** Where the database and site files persist; omit for an in-memory database (tests). */
  dataDir?: string;
  port?: number;
  sitesPort?: number;
  proxyPort?: number;
  env?: Record<string, string | undefined>;
  workflows?: LocalWorkflowOptions;
  /** Start the daily schedule at 14:00 UTC (npm start, unless SCHEDULE_ENABLED=0). */
  dailyTimer?: boolean;
  /** Tests: the container's clock (e.g. one that can be moved past the onboarding lease); tasks then run in process. */
  clock?: Clock;
  /**
   * Tests: run workflow tasks on this thread with this process's container, for a test that
   * injects a fault into the container's adapters. Otherwise tasks run on worker threads.
   */
  tasksInProcess?: boolean;
}

export interface LocalStack {
  config: Config;
  api: RunningServer;
  sites: RunningServer;
  /** The local CDN proxy: a distribution's domain (Host) runs through the edge function. */
  proxy: RunningServer;
  database: EmbeddedDatabase;
  idp: DevIdp;
  sitesDir: string;
  /** The in-process Step Functions stand-in (tests wait on executions through it). */
  workflows: LocalWorkflows;
  /** When the local timer starts the daily schedule next (null: timer off). */
  dailyRunAt: Date | null;
  close(): Promise<void>;
}

export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const env = options.env ?? process.env;
  const dataDir = options.dataDir;
  // Without a data directory (tests, benchmarks) files go to a fresh temporary one, removed on close.
  const scratchDir = dataDir ? undefined : mkdtempSync(join(tmpdir(), 'aivis-'));
  const sitesDir = join(dataDir ?? scratchDir!, 'sites');
  const database = await startEmbeddedDatabase({ path: dataDir && join(dataDir, 'db') });
  const idp = await loadDevIdp(dataDir && join(dataDir, 'dev-idp', 'signing-key.json'));
  const ready = deferred();
  const api = await startApiServer({
    port: options.port,
    ready: ready.promise,
    extra: [(req, res) => {
      if (req.method !== 'GET' || req.url !== JWKS_PATH) return false;
      send(res, 200, idp.jwks, { 'Cache-Control': 'public, max-age=300' });
      return true;
    }],
  });
  try {
    const stack = await installStack(options, env, { database, idp, api, sitesDir, scratchDir });
    ready.resolve();
    return stack;
  } catch (err) {
    ready.reject(err as Error);
    await api.close();
    await database.close();
    if (scratchDir) rmSync(scratchDir, { recursive: true, force: true });
    throw err;
  }
}

interface Started {
  database: EmbeddedDatabase;
  idp: DevIdp;
  api: RunningServer;
  sitesDir: string;
  scratchDir: string | undefined;
}

/** Everything behind the API: configuration, table, AI-site host, container, workflows, CDN proxy. */
async function installStack(options: LocalStackOptions, env: Record<string, string | undefined>, started: Started): Promise<LocalStack> {
  const { database, idp, api, sitesDir, scratchDir } = started;
  const usesDevIdp = !env.JWT_JWKS_URL;
  // One directory for the tasks' workflow objects and the runner's S3 stand-in (a Distributed Map reads what a task wrote).
  const workflowObjectsDir = join(sitesDir, '..', 'workflow-objects');
  const config = loadConfig({
    ALLOW_PRIVATE_NETWORK: '1',
    // The local fakes end a vendor batch at its first look: no reason to wait ten minutes for it.
    VISIBILITY_BATCH_POLL_SECONDS: '1',
    ...env,
    DYNAMODB_ENDPOINT: database.endpoint,
    API_KEY: env.API_KEY ?? DEV_API_KEY,
    IDP_WEBHOOK_SECRET: env.IDP_WEBHOOK_SECRET ?? DEV_WEBHOOK_SECRET,
    JWT_JWKS_URL: env.JWT_JWKS_URL ?? `http://127.0.0.1:${api.port}${JWKS_PATH}`,
    JWT_ISSUER: usesDevIdp ? idp.issuer : env.JWT_ISSUER,
    JWT_AUDIENCE: usesDevIdp ? idp.audience : env.JWT_AUDIENCE,
    SITES_DIR: sitesDir,
    ARTIFACTS_DIR: join(sitesDir, '..', 'artifacts'),
    WORKFLOW_OBJECTS_DIR: workflowObjectsDir,
    API_PUBLIC_URL: env.API_PUBLIC_URL ?? `http://localhost:${api.port}`,
  });
  await ensureTable(database.endpoint, config.tableName, config.region);
  const sites = await startSitesHost({ sitesDir, aiSiteDomain: config.aiSiteDomain, port: options.sitesPort });
  const db = createDocumentClient({ region: config.region, endpoint: database.endpoint });
  const containerConfig: Config = { ...config, aiSitePort: `:${sites.port}` };
  // Tasks run on worker threads (Lambda isolates invocations), unless a test gave this
  // process's container a clock or a fault of its own: a worker's container could not share it.
  const workers = options.clock || options.tasksInProcess ? undefined : { config: containerConfig };
  const workflows = createLocalWorkflows({ workers, buckets: createFsBuckets(workflowObjectsDir), ...options.workflows, records: createWorkflowExecutionRecords(db, config.tableName) });
  const container = buildContainer(containerConfig, { workflows, ...(options.clock ? { clock: options.clock } : {}) });
  setContainer(container);
  await settleInterruptedExecutions(workflows, container);
  await sweepUnfinishedReleases(sitesDir);
  const proxy = await startCdnProxy({ port: options.proxyPort, resolveHost: cdnOf(container).resolveHost, sitesPort: sites.port, allowPrivateNetwork: config.allowPrivateNetwork });
  const timer = options.dailyTimer && config.scheduleEnabled ? startDailyTimer(container) : null;

  return {
    config, api, sites, proxy, database, idp, sitesDir, workflows,
    dailyRunAt: timer?.next() ?? null,
    async close() {
      timer?.stop();
      await workflows.running();
      await workflows.close();
      await Promise.all([api.close(), sites.close(), proxy.close()]);
      await database.close();
      if (scratchDir) rmSync(scratchDir, { recursive: true, force: true });
      setContainer(undefined);
    },
  };
}

/**
 * One process serves a data folder (its database is locked to it), so an execution the
 * previous process recorded as running stopped with it: each is recorded ABORTED, and a daily
 * execution also gives up its businesses' days at once (D194), before anything is served.
 */
async function settleInterruptedExecutions(workflows: LocalWorkflows, container: Container): Promise<void> {
  for (const execution of await workflows.settleInterrupted()) {
    if (execution.workflow === 'daily-schedule') await settleInterruptedDailyExecution(container, execution.executionId);
  }
}

/** A promise settled from outside (the API server's readiness gate). */
function deferred(): { promise: Promise<void>; resolve(): void; reject(err: Error): void } {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<void>((res, rej) => { resolve = res; reject = rej; });
  promise.catch(() => undefined); // a start-up failure is reported by startLocalStack itself
  return { promise, resolve, reject };
}
