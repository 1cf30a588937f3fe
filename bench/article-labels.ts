/**
 * The articles of the shared catalogues as a shopper judges them (issue 45): a labelled set kept
 * in the repo (bench/labels/articles.json), at least 120 articles drawn from the five shared
 * catalogues, each labelled by a reader with the catalogue open, with why:
 *   asked     a shopper asks this question of this product;
 *   answers   the page answers it;
 *   true      everything it says agrees with the catalogue;
 *   verdict   it opens with one sentence giving the verdict and a catalogue fact.
 * The bench regenerates the stores' articles (articles.ts `storeArticles`, the first run's
 * extractive engine) and prints the labels' figures over the labelled articles it still
 * publishes word for word; an article whose words changed since it was labelled is counted
 * apart (relabel it). Beside them, over every published article: the share opening with a
 * lead (the planner's rule), and the article counts per catalogue and kind.
 *
 * `npx tsx bench/article-labels.ts` prints the figures; `--sample` writes a fresh stratified
 * sample (labels empty) to bench/labels/articles.sample.json for labelling.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedCatalogues, storeArticles, type PublishedArticle } from './articles';
import { ROOT } from './lib';

export const LABEL_FILE = join(ROOT, 'bench/labels/articles.json');
const SAMPLE_FILE = join(ROOT, 'bench/labels/articles.sample.json');
/** Articles drawn per catalogue (five catalogues: 130). */
const PER_STORE = 26;

export interface ArticleLabels {
  asked: boolean;
  answers: boolean;
  true: boolean;
  verdict: boolean;
}

export interface LabelledArticle {
  store: string;
  title: string;
  intent: string;
  lead: string;
  text: string;
  labels: ArticleLabels | null;
  why: string;
}

export interface StoreCounts {
  store: string;
  published: number;
  withLead: number;
  byIntent: Record<string, number>;
}

export interface LabelFigures {
  labelled: number;
  /** Labelled articles the generator still publishes word for word. */
  found: number;
  /** Labelled articles no longer published, or published in other words. */
  changed: number;
  asked: number;
  answers: number;
  true: number;
  verdict: number;
  stores: StoreCounts[];
}

/** FNV-1a: a stable order for the draw, independent of the catalogue's order. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (const ch of text) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193);
  return h >>> 0;
}

/** A store's name as the labels write it: the catalogue file's name. */
const storeOf = (label: string) => label.replace(/ \(.*$/, '');

async function publishedByStore(): Promise<Array<{ store: string; articles: PublishedArticle[] }>> {
  const out = [];
  for (const c of sharedCatalogues()) out.push({ store: storeOf(c.label), articles: (await storeArticles(c.label, c.snapshot)).published });
  return out;
}

/** PER_STORE articles of each store, its kinds in turn (each kind's articles in hash order), so no kind crowds the others out. */
export function stratifiedSample(store: string, articles: readonly PublishedArticle[]): LabelledArticle[] {
  const byIntent = new Map<string, PublishedArticle[]>();
  for (const a of [...articles].sort((x, y) => hash(x.title) - hash(y.title))) byIntent.set(a.intent, [...(byIntent.get(a.intent) ?? []), a]);
  const queues = [...byIntent.values()];
  const out: LabelledArticle[] = [];
  while (out.length < PER_STORE && queues.some((q) => q.length)) {
    for (const q of queues) {
      const a = q.shift();
      if (a && out.length < PER_STORE) out.push({ store, title: a.title, intent: a.intent, lead: a.lead, text: a.text, labels: null, why: '' });
    }
  }
  return out;
}

export async function measureArticleLabels(): Promise<LabelFigures | null> {
  if (!existsSync(LABEL_FILE)) return null;
  const labelled = (JSON.parse(readFileSync(LABEL_FILE, 'utf8')) as { articles: LabelledArticle[] }).articles.filter((a) => a.labels);
  const stores = await publishedByStore();
  const current = new Map(stores.flatMap(({ store, articles }) => articles.map((a) => [`${store}\n${a.title}`, a] as const)));
  const found = labelled.filter((l) => { const now = current.get(`${l.store}\n${l.title}`); return now?.lead === l.lead && now.text === l.text; });
  const count = (key: keyof ArticleLabels) => found.filter((l) => l.labels![key]).length;
  return {
    labelled: labelled.length, found: found.length, changed: labelled.length - found.length,
    asked: count('asked'), answers: count('answers'), true: count('true'), verdict: count('verdict'),
    stores: stores.map(({ store, articles }) => {
      const byIntent: Record<string, number> = {};
      for (const a of articles) byIntent[a.intent] = (byIntent[a.intent] ?? 0) + 1;
      return { store, published: articles.length, withLead: articles.filter((a) => a.lead).length, byIntent };
    }),
  };
}

const pct = (n: number, of: number) => (of ? `${((100 * n) / of).toFixed(1)}%` : 'n/a');

export function articleLabelLines(f: LabelFigures): string[] {
  return [
    `labelled set: ${f.labelled} articles, ${f.found} still published as labelled (${f.changed} changed since: relabel)`,
    `  a shopper asks it ${pct(f.asked, f.found)} (goal 95%), answers it ${pct(f.answers, f.found)} (goal 90%), true ${pct(f.true, f.found)} (goal 100%), opens with a verdict and a fact ${pct(f.verdict, f.found)} (goal 100%)`,
    ...f.stores.map((s) => `  ${s.store}: ${s.published} articles, ${pct(s.withLead, s.published)} with a lead; ${Object.entries(s.byIntent).sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ')}`),
  ];
}

if (require.main === module) {
  (async () => {
    if (process.argv.includes('--sample')) {
      const sample = (await publishedByStore()).flatMap(({ store, articles }) => stratifiedSample(store, articles));
      mkdirSync(join(ROOT, 'bench/labels'), { recursive: true });
      writeFileSync(SAMPLE_FILE, `${JSON.stringify({ articles: sample }, null, 1)}\n`);
      console.log(`${sample.length} articles sampled to ${SAMPLE_FILE}`);
      return;
    }
    const figures = await measureArticleLabels();
    if (!figures) console.log(`no labelled set at ${LABEL_FILE}`);
    else for (const line of articleLabelLines(figures)) console.log(line);
  })().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
