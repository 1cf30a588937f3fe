/**
 * The daily checks that go through vendor batches (issue 47). In a business's day, 2b queues
 * the checks of the batch platforms (analyze.ts); then, per Map child (a batch of businesses):
 *   arrive   its businesses are recorded as done in their shard of the day's list (D222);
 *   submit   the child that completes a shard sends, per batch platform, the shard's queued
 *            checks to the vendor as one batch job (recorded first, so a retried submit finds
 *            it); the checks become `submitted`. Jobs are thus shard-sized (BATCH_SHARD_BUSINESSES),
 *            not child-sized: at 50,000 businesses, 1,000 jobs a platform instead of 5,000;
 * and after the fan-out, until no job is open, every VISIBILITY_BATCH_POLL_SECONDS:
 *   list     a shard a failed child left incomplete is sent with the businesses that arrived;
 *            the businesses with an open job, each with its open jobs, are written as the next
 *            Map's item list (D226);
 *   collect  per business: each of its jobs is asked for progress; an ended job's answers are
 *            downloaded once, by the first collector to find it ended, and stored split per
 *            business (the others read their share); they are judged into their checks (a
 *            missing or failed answer is a failed check); a listed job none of the
 *            business's checks waits on any more (asked again on demand) is asked too, so it
 *            ends and leaves the list; a job
 *            not ended within the vendor's window (or never accepted) fails its checks; a
 *            business with no check left waiting gets its report, tracker and score, once.
 * A score is never written while any of the day's checks waits for a batch.
 */
import { createHash } from 'node:crypto';
import pLimit from 'p-limit';
import type { PlatformKey } from '../../core/constants';
import type { VisibilityCheck } from '../../core/visibility/checks';
import type { EntityIdentity, PlatformOutcome } from '../../core/visibility/platform-answer';
import type { BatchPrompt, PlatformBatchClient } from '../../core/visibility/platform-batch';
import { WORKFLOW_OBJECTS_PREFIX, type DailyBusinessItem } from '../../core/workflows';
import type { Container } from '../../container';
import type { VisibilityBatchEngines } from '../../engines/visibility-batches';
import type { VisibilityEngines } from '../../engines/visibility';
import type { VisibilityBatchJob, WorkflowObjectStore } from '../../ports';
import { UpstreamError } from '../../core/errors';
import { createLogger } from '../../logger';
import { requireBusiness } from '../business';
import { answeredCheck, pendingPlatforms, scoreDay, scoreFields } from './analyze';
import { entityIdentityOf } from './identity';

const log = createLogger({ component: 'visibility-batches' });

/**
 * The most checks one job carries: its item lists them, and an item stops at 400 KB (a member is
 * about 100 bytes). A shard of 100 businesses queues 1,000 per platform; a larger shard makes more
 * jobs, not a larger item.
 */
export const MAX_JOB_CHECKS = 1000;
/** A job still `submitting` this long after it was recorded was never accepted by the vendor. */
const SUBMIT_GRACE_MS = 60 * 60_000;
/** Past the vendor's completion window, a job is given up (the vendor expires it too). */
const WINDOW_GRACE_MS = 60 * 60_000;
/**
 * A submit's claim to send a job holds this long: past the Lambda's 300 s timeout, so it holds
 * while its sender may still run, and a sender's crash frees the job within a minute after.
 */
const SEND_CLAIM_MS = 6 * 60_000;
/** How often a copy that lost a claim reads the job for the claimant's outcome. */
const WAIT_MS = 1000;
/** How many times another copy of a submit looks for the sender's outcome before failing to be retried. */
const SEND_WAIT_TRIES = 30;
/** A job's vendor_status when its vendor refused it: this prefix, then the vendor's reason. */
const NOT_SUBMITTED = 'not submitted: ';
/** The first collector of an ended job claims storing its answers this long (a claim left by a crash expires). */
const RESULTS_CLAIM_MS = 5 * 60_000;
/** How many times another collector looks for the stored answers before reading the vendor's itself. */
const RESULTS_WAIT_TRIES = 60;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** An ended job is listed for its uncollected businesses this long (a collector failing for longer is given up). */
const COLLECT_GRACE_MS = 6 * 60 * 60_000;

/** Writes of one job's per-business result slices, or of its checks, at once (a shard's job holds 1,000 checks). */
const WRITE_CONCURRENCY = 16;

/** The day and the execution a batch step works for. */
type RunRef = { run_date: string; execution_id: string };
export interface BatchRunInput extends RunRef { org_slugs: string[] }

type SubmittedJobs = Array<{ platform: PlatformKey; job_id: string; checks: number; status: string }>;

/** A daily list item as a Map child gets it: a list written before D222 has no shard. */
export type ArrivingItem = Pick<DailyBusinessItem, 'org_slug'> & Partial<DailyBusinessItem>;

/**
 * After a Map child's businesses: records them as arrived in their shards, and sends the
 * checks of each shard this child completed. Items without a shard (a list written before
 * D222) are sent as the child's own jobs.
 */
export async function submitVisibilityBatches(
  container: Container, batches: VisibilityBatchEngines, engines: VisibilityEngines, input: RunRef & { items: ArrivingItem[] },
): Promise<{ jobs: SubmittedJobs; shards_sent: number[] }> {
  if (batches.clients.size === 0) return { jobs: [], shards_sent: [] };
  const run: RunRef = { run_date: input.run_date, execution_id: input.execution_id };
  const unsharded: string[] = [];
  const shards = new Map<number, { expected: number; orgs: string[] }>();
  for (const { org_slug, shard, shard_size } of input.items) {
    if (shard === undefined || shard_size === undefined) {
      unsharded.push(org_slug);
      continue;
    }
    const entry = shards.get(shard) ?? { expected: shard_size, orgs: [] };
    entry.orgs.push(org_slug);
    shards.set(shard, entry);
  }
  const jobs = unsharded.length ? await submitQueuedChecks(container, batches, engines, { ...run, org_slugs: unsharded }) : [];
  const sent: number[] = [];
  for (const [shard, { expected, orgs }] of shards) {
    const state = await batches.jobs.arrive(run.run_date, run.execution_id, shard, expected, orgs);
    // Only the child whose arrival completes the shard sends it (a repeat finds it sent, or finds its checks already submitted).
    if (state.submitted || state.arrived.length < state.expected) continue;
    jobs.push(...await sendShard(container, batches, engines, run, shard, state.arrived));
    sent.push(shard);
  }
  return { jobs, shards_sent: sent };
}

/** A shard's queued checks to the vendors, then the shard marked sent (a retry before the mark finds its checks already submitted). */
async function sendShard(container: Container, batches: VisibilityBatchEngines, engines: VisibilityEngines, run: RunRef, shard: number, orgSlugs: string[]): Promise<SubmittedJobs> {
  const jobs = await submitQueuedChecks(container, batches, engines, { ...run, org_slugs: orgSlugs });
  await batches.jobs.markShardSubmitted(run.run_date, run.execution_id, shard);
  return jobs;
}

/** Sends the shards a failed child left incomplete, with the businesses that arrived (once the fan-out is over). */
async function submitIncompleteShards(container: Container, batches: VisibilityBatchEngines, engines: VisibilityEngines, run: RunRef): Promise<number> {
  const open = await batches.jobs.listUnsubmittedShards(run.run_date, run.execution_id);
  for (const shard of open) {
    await sendShard(container, batches, engines, run, shard.shard, shard.arrived);
    log.warn('sent an incomplete shard', { run_date: run.run_date, shard: shard.shard, arrived: shard.arrived.length, expected: shard.expected });
  }
  return open.length;
}

/** Each check written once, WRITE_CONCURRENCY at a time (each its own item: no write depends on another). */
async function putChecks(container: Container, checks: VisibilityCheck[]): Promise<void> {
  const limit = pLimit(WRITE_CONCURRENCY);
  await Promise.all(checks.map((c) => limit(() => container.visibilityChecks.putCheck(c))));
}

/** The id the vendor answers a check under: stable for (business, day, platform, prompt). */
export function customIdOf(check: Pick<VisibilityCheck, 'org_slug' | 'run_date' | 'platform' | 'prompt_id'>): string {
  return `c_${createHash('sha256').update(`${check.org_slug}|${check.run_date}|${check.platform}|${check.prompt_id}`).digest('hex').slice(0, 40)}`;
}

/** The same queued checks make the same job: a retried submit finds it instead of sending it twice. */
export function jobIdOf(executionId: string, platform: PlatformKey, members: ReadonlyArray<{ custom_id: string }>): string {
  return createHash('sha256').update(`${executionId}|${platform}|${members.map((m) => m.custom_id).join(',')}`).digest('hex').slice(0, 32);
}

/** Submits each batch platform's queued checks of these businesses as vendor batches; the jobs. */
async function submitQueuedChecks(container: Container, batches: VisibilityBatchEngines, engines: VisibilityEngines, input: BatchRunInput): Promise<SubmittedJobs> {
  const checksByOrg = new Map(await Promise.all(input.org_slugs.map(async (org) => [org, await container.visibilityChecks.listChecks(org, input.run_date)] as const)));
  const out: SubmittedJobs = [];
  const touched = new Set<string>();
  for (const [platform, client] of batches.clients) {
    const queued = [...checksByOrg.values()].flat().filter((c) => c.platform === platform && c.status === 'queued');
    const perJob = Math.min(client.maxPrompts, MAX_JOB_CHECKS);
    for (let i = 0; i < queued.length; i += perJob) {
      const chunk = queued.slice(i, i + perJob);
      const members = chunk.map((c) => ({ org_slug: c.org_slug, prompt_id: c.prompt_id, custom_id: customIdOf(c) }));
      const jobId = jobIdOf(input.execution_id, platform, members);
      const orgSlugs = [...new Set(members.map((m) => m.org_slug))].sort();
      const now = container.clock.now().toISOString();
      const job: VisibilityBatchJob = {
        run_date: input.run_date, platform, job_id: jobId, execution_id: input.execution_id, status: 'submitting',
        vendor_batch_id: null, vendor_status: null, created_at: now, submitted_at: null, ended_at: null,
        member_orgs: orgSlugs.length, member_org_slugs: orgSlugs, members,
      };
      const stored = (await batches.jobs.create(job)) ? job : ((await batches.jobs.get(input.run_date, platform, jobId)) ?? job);
      const prompts: BatchPrompt[] = chunk.map((c, k) => ({ customId: members[k]!.custom_id, prompt: c.prompt }));
      const sent = stored.status === 'submitting' ? await sendOnce(container, client, batches, stored, prompts) : stored;
      const batchOf = (k: number) => ({ job_id: jobId, custom_id: members[k]!.custom_id });
      if (!sent.vendor_batch_id) {
        // Not accepted (by this copy's send or another's): the checks fail with the vendor's reason now, rather than wait for a batch that does not exist.
        const why = `${platform}: the vendor batch was not accepted: ${(sent.vendor_status ?? '').replace(NOT_SUBMITTED, '') || 'no reason given'}`;
        await putChecks(container, chunk.map((c, k) => ({ ...c, status: 'failed', reason: why, checked_at: container.clock.now().toISOString(), batch: batchOf(k) })));
        chunk.forEach((c) => touched.add(c.org_slug));
        out.push({ platform, job_id: jobId, checks: chunk.length, status: 'not submitted' });
        continue;
      }
      await putChecks(container, chunk.map((c, k) => ({ ...c, status: 'submitted', reason: `in ${platform}'s vendor batch ${sent.vendor_batch_id}`, batch: batchOf(k) })));
      out.push({ platform, job_id: jobId, checks: chunk.length, status: sent.status });
    }
  }
  // A business whose batches all failed to submit is settled now.
  for (const org of touched) await finalizeIfSettled(container, engines, org, input.run_date, input.execution_id);
  return out;
}

/**
 * Sends a recorded job to its vendor once (D230); the job as it then stands. The copy of the
 * submit that claims the job (a conditional write) sends it. A copy running at the same time
 * (Step Functions delivers a task at least once, and retries one that timed out while it may
 * still run) waits for that send's outcome instead of sending a second batch, and fails to be
 * retried when none comes in time: its shard then stays unsent, so when the sender crashed,
 * its claim expires and the next attempt (or the listing after the fan-out) sends the job.
 * Vendors take no idempotency key, so a sender that crashes after the vendor accepted the
 * batch and before recording it still leaves a batch behind: the window is one HTTP answer.
 */
async function sendOnce(container: Container, client: PlatformBatchClient, batches: VisibilityBatchEngines, job: VisibilityBatchJob, prompts: BatchPrompt[]): Promise<VisibilityBatchJob> {
  const now = container.clock.now();
  if (await batches.jobs.claimSend(job, new Date(now.getTime() + SEND_CLAIM_MS).toISOString(), now.toISOString())) {
    let fields: Partial<VisibilityBatchJob>;
    try {
      const { id } = await client.submit(prompts, `${job.run_date} ${job.job_id}`);
      fields = { status: 'in_progress', vendor_batch_id: id, vendor_status: 'submitted', submitted_at: container.clock.now().toISOString() };
    } catch (err) {
      const why = (err as Error).message;
      log.warn('vendor batch not submitted', { platform: job.platform, job_id: job.job_id, checks: prompts.length, reason: why });
      fields = { status: 'ended', vendor_status: `${NOT_SUBMITTED}${why}`, ended_at: container.clock.now().toISOString() };
    }
    await batches.jobs.update(job, fields);
    return { ...job, ...fields };
  }
  const sent = await waitForJob(batches, job, (current) => current.status !== 'submitting', SEND_WAIT_TRIES);
  if (sent) return sent;
  throw new UpstreamError(`${job.platform}: vendor batch job ${job.job_id} is being sent by another copy of this step; not sent twice`);
}

/** The job once another invocation's claimed work on it shows (`done`), read every WAIT_MS up to `tries` times; null when it never did. */
async function waitForJob(
  batches: VisibilityBatchEngines, job: VisibilityBatchJob, done: (current: VisibilityBatchJob) => boolean, tries: number,
): Promise<VisibilityBatchJob | null> {
  for (let i = 0; i < tries; i++) {
    await sleep(WAIT_MS);
    const current = await batches.jobs.get(job.run_date, job.platform, job.job_id);
    if (current && done(current)) return current;
  }
  return null;
}

/** One item of the collecting Map's list: a business and its open jobs (`<platform>#<job_id>`). */
export interface PendingBatchItem { org_slug: string; jobs: string[] }

const jobKeyOf = (platform: PlatformKey, jobId: string) => `${platform}#${jobId}`;
const JOB_KEY = /^(platform_[1-8])#([0-9a-f]{32})$/;

/** Sends what incomplete shards hold, then writes the businesses with an open batch job as the collecting Map's item list; how many. */
export async function listPendingVisibilityBatches(
  container: Container, batches: VisibilityBatchEngines, engines: VisibilityEngines, objects: WorkflowObjectStore, state: RunRef,
): Promise<{ bucket: string; key: string; count: number; open_jobs: number; incomplete_shards_sent: number }> {
  const incomplete = batches.clients.size ? await submitIncompleteShards(container, batches, engines, state) : 0;
  const endedSince = new Date(container.clock.now().getTime() - COLLECT_GRACE_MS).toISOString();
  const open = await batches.jobs.listOpen(state.run_date, endedSince);
  // Each business with the jobs it is still to be collected from (D226, D227): its collector asks them even when none of its checks waits on them.
  const jobsByOrg = new Map<string, Set<string>>();
  for (const job of open) {
    const collectedOrgs = new Set(job.collected_orgs ?? []);
    for (const org_slug of job.org_slugs) {
      if (collectedOrgs.has(org_slug)) continue;
      const jobs = jobsByOrg.get(org_slug) ?? new Set<string>();
      jobs.add(jobKeyOf(job.platform, job.job_id));
      jobsByOrg.set(org_slug, jobs);
    }
  }
  const items: PendingBatchItem[] = [...jobsByOrg.keys()].sort().map((org_slug) => ({ org_slug, jobs: [...jobsByOrg.get(org_slug)!].sort() }));
  const key = `${WORKFLOW_OBJECTS_PREFIX}/${state.run_date}/${state.execution_id}/pending-visibility-batches.json`;
  await objects.putJson(key, items);
  return { bucket: objects.bucket, key, count: items.length, open_jobs: open.length, incomplete_shards_sent: incomplete };
}

/**
 * Collects what the vendors have ended for these businesses' jobs and scores each business
 * whose day no longer waits. Safe to repeat: a check is taken from a job only while it is
 * still `submitted` under it, and a day is scored only while it has no report.
 */
export async function collectVisibilityBatches(
  container: Container, batches: VisibilityBatchEngines, engines: VisibilityEngines, objects: WorkflowObjectStore,
  input: BatchRunInput & {
    /**
     * The jobs each business is still to be collected from (PendingBatchItem.jobs). A job none
     * of whose checks still waits on it (an on-demand analysis asked them all again) is asked
     * too (D226), and every job not running any more is marked collected for the business once
     * its checks under it are settled (D227), so the job leaves the list when all are.
     */
    jobs_by_org?: Record<string, string[]>;
  },
): Promise<{ collected: number; waiting: number; scored: string[]; jobs_without_checks: number }> {
  let collected = 0;
  let waiting = 0;
  let jobsWithoutChecks = 0;
  const scored: string[] = [];
  const outcomes = new Map<string, JobAnswers | 'in_progress' | { failed: string }>();
  const outcomeOf = async (jobKey: string) => {
    const m = JOB_KEY.exec(jobKey)!;
    if (!outcomes.has(jobKey)) outcomes.set(jobKey, await jobOutcomes(container, batches, objects, input.run_date, m[1] as PlatformKey, m[2]!));
    return outcomes.get(jobKey)!;
  };
  const collectedFrom = new Map<string, string[]>();
  for (const org of input.org_slugs) {
    const checks = await container.visibilityChecks.listChecks(org, input.run_date);
    // The identity is read only when an answer is to be judged: most rounds find the jobs still running.
    let identity: Promise<EntityIdentity> | undefined;
    const identityOf = () => (identity ??= requireBusiness(container, org).then((b) => entityIdentityOf(container, b)).then((k) => k.identity));
    const listed = (input.jobs_by_org?.[org] ?? []).filter((k) => JOB_KEY.test(k));
    const referenced = new Set<string>();
    for (const [i, check] of checks.entries()) {
      if (check.status !== 'submitted' || !check.batch) continue;
      const jobKey = jobKeyOf(check.platform, check.batch.job_id);
      referenced.add(jobKey);
      const got = await outcomeOf(jobKey);
      if (got === 'in_progress') { waiting += 1; continue; }
      checks[i] = await settledCheck(container, engines, check, 'failed' in got ? got : await got.answersOf(org), identityOf);
      await container.visibilityChecks.putCheck(checks[i]!);
      collected += 1;
    }
    for (const jobKey of listed) {
      if (referenced.has(jobKey)) continue;
      if (!outcomes.has(jobKey)) jobsWithoutChecks += 1;
      // Only its status moves (ended, expired): its answers are read when a check asks for them.
      await outcomeOf(jobKey);
    }
    // Every job this business is done with: none of its checks waits on it any more.
    for (const jobKey of new Set([...listed, ...referenced])) {
      if (outcomes.get(jobKey) !== 'in_progress') collectedFrom.set(jobKey, [...(collectedFrom.get(jobKey) ?? []), org]);
    }
    if (await finalizeIfSettled(container, engines, org, input.run_date, input.execution_id, checks)) scored.push(org);
  }
  for (const [jobKey, orgs] of collectedFrom) {
    const m = JOB_KEY.exec(jobKey)!;
    await batches.jobs.markCollected({ run_date: input.run_date, platform: m[1] as PlatformKey, job_id: m[2]! }, orgs);
  }
  return { collected, waiting, scored, jobs_without_checks: jobsWithoutChecks };
}

/** A submitted check with its job's outcome: the judged answer, or failed with the vendor's (or our) reason. */
async function settledCheck(
  container: Container, engines: VisibilityEngines, check: VisibilityCheck, got: Map<string, PlatformOutcome> | { failed: string }, identity: () => Promise<EntityIdentity>,
): Promise<VisibilityCheck> {
  const base = { ...check, answer: null, verdict: null, matcher_agrees: null, judge_error: null };
  const failed = (status: VisibilityCheck['status'], reason: string): VisibilityCheck => ({ ...base, result: null, status, reason, checked_at: container.clock.now().toISOString() });
  if ('failed' in got) return failed('failed', got.failed);
  const outcome = got.get(check.batch!.custom_id);
  if (!outcome) return failed('failed', `${check.platform}: the vendor batch returned no result for this prompt`);
  if (!outcome.ok) return failed(outcome.failure.kind, outcome.failure.reason);
  return answeredCheck(container, engines, base, outcome.answer, await identity());
}

/** An ended job's answers, by custom id, for one business at a time. */
interface JobAnswers {
  answersOf(orgSlug: string): Promise<Map<string, PlatformOutcome>>;
}

/** Where one business's share of an ended job's answers is stored (by custom id). */
export function batchResultSliceKey(job: Pick<VisibilityBatchJob, 'run_date' | 'execution_id' | 'platform' | 'job_id'>, orgSlug: string): string {
  return `${WORKFLOW_OBJECTS_PREFIX}/${job.run_date}/${job.execution_id}/batch-results/${job.platform}/${job.job_id}/${orgSlug}.json`;
}

/**
 * An ended job's answers. The collector that claims the job (a conditional write) downloads
 * the vendor's results once and stores them split per business, then marks the job; the
 * others (a 1,000-request job spans 100 businesses, about ten collecting children, which find
 * it ended in the same round) wait for the mark and read only their businesses' shares. A
 * claim left by a crash expires; a collector that waited in vain reads the vendor's results
 * itself. Every write holds the same content, so a repeat or a race loses nothing.
 */
function endedJobAnswers(
  container: Container, batches: VisibilityBatchEngines, objects: WorkflowObjectStore, job: VisibilityBatchJob, download: () => Promise<Map<string, PlatformOutcome>>,
): JobAnswers {
  let whole: Promise<Map<string, PlatformOutcome>> | undefined;
  const fromVendor = () => (whole ??= download());
  const shareOf = (all: Map<string, PlatformOutcome>, orgSlug: string) => new Map(job.members.filter((m) => m.org_slug === orgSlug && all.has(m.custom_id)).map((m) => [m.custom_id, all.get(m.custom_id)!]));
  const readShare = async (orgSlug: string) => {
    const slice = await objects.getJson<Record<string, PlatformOutcome>>(batchResultSliceKey(job, orgSlug));
    if (slice) return new Map(Object.entries(slice));
    log.warn('stored batch results missing a business; reading the vendor\'s results', { platform: job.platform, job_id: job.job_id, org: orgSlug });
    return shareOf(await fromVendor(), orgSlug);
  };
  const storeAll = async () => {
    const all = await fromVendor();
    const orgs = [...new Set(job.members.map((m) => m.org_slug))];
    const limit = pLimit(WRITE_CONCURRENCY);
    await Promise.all(orgs.map((org) => limit(() => objects.putJson(batchResultSliceKey(job, org), Object.fromEntries(shareOf(all, org))))));
    await batches.jobs.update(job, { results_stored_at: container.clock.now().toISOString() });
    return all;
  };
  // Where this collector's answers come from, decided when a check first asks (a job no check waits on is never downloaded).
  const resolve = async (): Promise<'stored' | Map<string, PlatformOutcome>> => {
    if (job.results_stored_at) return 'stored';
    const now = container.clock.now();
    if (await batches.jobs.claimResults(job, new Date(now.getTime() + RESULTS_CLAIM_MS).toISOString(), now.toISOString())) return storeAll();
    // Another collector (of the ~10 a shard's job spans, all finding it ended in the same round) is storing them: wait for its shares.
    if (await waitForJob(batches, job, (current) => !!current.results_stored_at, RESULTS_WAIT_TRIES)) return 'stored';
    log.warn('stored batch results not ready; reading the vendor\'s results', { platform: job.platform, job_id: job.job_id });
    return fromVendor();
  };
  let source: Promise<'stored' | Map<string, PlatformOutcome>> | undefined;
  // One share per business, whichever the source: the caller asks for each of its checks.
  const shares = new Map<string, Promise<Map<string, PlatformOutcome>>>();
  const answersOf = async (orgSlug: string) => {
    const from = await (source ??= resolve());
    return from === 'stored' ? readShare(orgSlug) : shareOf(from, orgSlug);
  };
  return { answersOf: (orgSlug) => shares.get(orgSlug) ?? shares.set(orgSlug, answersOf(orgSlug)).get(orgSlug)! };
}

/** A job's answers once the vendor has ended it; `in_progress`; or why all its checks fail. */
async function jobOutcomes(
  container: Container, batches: VisibilityBatchEngines, objects: WorkflowObjectStore, runDate: string, platform: PlatformKey, jobId: string,
): Promise<JobAnswers | 'in_progress' | { failed: string }> {
  const job = await batches.jobs.get(runDate, platform, jobId);
  if (!job) return { failed: `${platform}: its vendor batch job ${jobId} is not recorded` };
  const client = batches.clients.get(platform);
  const now = container.clock.now();
  if (job.status === 'expired' || !job.vendor_batch_id) {
    if (job.status === 'submitting' && now.getTime() - Date.parse(job.created_at) < SUBMIT_GRACE_MS) return 'in_progress';
    if (job.status !== 'expired') await batches.jobs.update(job, { status: 'expired', vendor_status: 'never accepted by the vendor', ended_at: now.toISOString() });
    return { failed: `${platform}: the vendor batch was never accepted` };
  }
  if (!client) return { failed: `${platform}: its batch interface is no longer configured` };
  if (job.status === 'in_progress') {
    const progress = await client.progress(job.vendor_batch_id);
    if (progress.state !== 'ended') {
      const deadline = Date.parse(job.submitted_at ?? job.created_at) + client.completionWindowHours * 3600_000 + WINDOW_GRACE_MS;
      if (now.getTime() <= deadline) {
        if (progress.vendorStatus !== job.vendor_status) await batches.jobs.update(job, { vendor_status: progress.vendorStatus });
        return 'in_progress';
      }
      await batches.jobs.update(job, { status: 'expired', vendor_status: progress.vendorStatus, ended_at: now.toISOString() });
      return { failed: `${platform}: the vendor batch did not end within its ${client.completionWindowHours} h window` };
    }
    await batches.jobs.update(job, { status: 'ended', vendor_status: progress.vendorStatus, ended_at: now.toISOString() });
  }
  return endedJobAnswers(container, batches, objects, job, () => client.results(job.vendor_batch_id!));
}

/**
 * The day's report, tracker and score once none of its checks waits for a batch and it has
 * none yet (the report is written last); then the business's run record of this execution
 * says so on its 2b step. True when it scored now.
 */
async function finalizeIfSettled(
  container: Container, engines: VisibilityEngines, orgSlug: string, runDate: string, executionId: string,
  /** The day's checks as they now stand, when the caller has them. */
  current?: VisibilityCheck[],
): Promise<boolean> {
  const checks = current ?? await container.visibilityChecks.listChecks(orgSlug, runDate);
  if (!checks.some((c) => c.batch) || pendingPlatforms(checks).length > 0) return false;
  if (await container.visibilityChecks.getReport(orgSlug, runDate)) return false;
  const sample = await container.visibilityChecks.getSample(orgSlug, runDate);
  if (!sample) return false;
  const business = await requireBusiness(container, orgSlug);
  const { score } = await scoreDay(container, business, sample, checks, await entityIdentityOf(container, business));
  log.info('visibility scored from vendor batches', { org: orgSlug, run_date: runDate, score: score?.overallScore ?? null });
  const step = (await container.dailyRuns.getBusinessRun(executionId, orgSlug))?.steps['2b'];
  if (step?.result) {
    const checksDone = checks.filter((c) => c.result !== null).length;
    await container.dailyRuns.updateStep(executionId, orgSlug, '2b', {
      ...step,
      result: { ...step.result, pending_platforms: [], checks_done: checksDone, ...scoreFields(score), batches_settled_at: container.clock.now().toISOString() },
    });
  }
  return true;
}
