/**
 * `npx tsx bin/refresh-ai-crawlers.ts`: refreshes the vendored list of AI crawlers
 * (functions/core/site/vendored/ai-robots-txt.json) from the maintained public list
 * ai-robots-txt/ai.robots.txt (robots.json), with the commit it was taken from and the date.
 * Run by a person (it needs the internet), reviewed and committed like any change: the
 * service never fetches the list at request time (issue 35).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { vendoredAiCrawlers, type RobotsJson } from '../functions/core/site/listed-ai-crawlers';

const REPO = 'ai-robots-txt/ai.robots.txt';
const OUT = join(__dirname, '..', 'functions', 'core', 'site', 'vendored', 'ai-robots-txt.json');

async function json<T>(url: string): Promise<T> {
  const res = await fetch(url, { headers: { 'User-Agent': 'ai-visibility-service refresh-ai-crawlers' } });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return (await res.json()) as T;
}

async function main() {
  const commit = await json<{ sha: string; commit: { committer: { date: string } } }>(`https://api.github.com/repos/${REPO}/commits/main`);
  const robots = await json<RobotsJson>(`https://raw.githubusercontent.com/${REPO}/${commit.sha}/robots.json`);
  const list = vendoredAiCrawlers(robots, { commit: commit.sha, committedAt: commit.commit.committer.date, refreshedAt: new Date().toISOString().slice(0, 10) });
  writeFileSync(OUT, `${JSON.stringify(list, null, 1)}\n`);
  console.log(`${list.agents.length} agents from ${REPO}@${commit.sha.slice(0, 12)} written to ${OUT}`);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
