/**
 * `npx tsx bin/refresh-ai-crawlers.ts`: refreshes the vendored lists of AI crawlers
 * (functions/core/site/vendored/<id>.json) from the maintained public lists of
 * functions/core/site/ai-crawler-lists.ts (ai.robots.txt, and the AI entries of
 * device-detector and crawler-user-agents), each with the commit it was taken from and the
 * date. Run by a person (it needs the internet), reviewed and committed like any change: the
 * service never fetches the lists at request time (issue 35).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import {
  AI_CRAWLER_LISTS, vendoredAiCrawlers, vendoredCrawlerUserAgents, vendoredDeviceDetector, type AiCrawlerList, type ListAt, type VendoredAiCrawlers,
} from '../functions/core/site/ai-crawler-lists';

const VENDORED = join(__dirname, '..', 'functions', 'core', 'site', 'vendored');

async function get(url: string): Promise<string> {
  const res = await fetch(url, { headers: { 'User-Agent': 'ai-visibility-service refresh-ai-crawlers' } });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return res.text();
}

/** Raw texts of the list's files at `at.commit`, in `files` order. */
type Vendor = (texts: string[], at: ListAt) => VendoredAiCrawlers;

const VENDOR: Record<AiCrawlerList['id'], Vendor> = {
  'ai-robots-txt': ([robots], at) => vendoredAiCrawlers(JSON.parse(robots!), at),
  'device-detector': ([bots, fixtures], at) => vendoredDeviceDetector(parseYaml(bots!), parseYaml(fixtures!), at),
  'crawler-user-agents': ([entries], at) => vendoredCrawlerUserAgents(JSON.parse(entries!), at),
};

async function refresh(list: AiCrawlerList): Promise<void> {
  const commit = JSON.parse(await get(`https://api.github.com/repos/${list.repo}/commits/${list.branch}`)) as { sha: string; commit: { committer: { date: string } } };
  const texts = await Promise.all(list.files.map((file) => get(`https://raw.githubusercontent.com/${list.repo}/${commit.sha}/${file}`)));
  const vendored = VENDOR[list.id](texts, { commit: commit.sha, committedAt: commit.commit.committer.date, refreshedAt: new Date().toISOString().slice(0, 10) });
  // An empty list would silently switch the long tail off: a changed format must stop the refresh.
  if (!vendored.agents.length) throw new Error(`${list.repo}: no AI entries found; has its format changed?`);
  const out = join(VENDORED, `${list.id}.json`);
  writeFileSync(out, `${JSON.stringify(vendored, null, 1)}\n`);
  console.log(`${vendored.agents.length} agents from ${list.repo}@${commit.sha.slice(0, 12)} written to ${out}`);
}

async function main() {
  for (const list of AI_CRAWLER_LISTS) await refresh(list);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
