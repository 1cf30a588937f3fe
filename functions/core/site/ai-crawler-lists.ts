/**
 * The maintained public lists of AI crawlers and how each raw file becomes its vendored form
 * (vendored/<id>.json: source, commit, dates, and the AI entries only, one row per plain
 * name). Used by bin/refresh-ai-crawlers.ts; the service reads only the vendored files.
 *
 *   ai-robots-txt        ai-robots-txt/ai.robots.txt robots.json: every entry is an AI agent.
 *   device-detector      matomo-org/device-detector regexes/bots.yml: entries whose category
 *                        starts with "AI " (AI Agent, AI Assistant, AI Data Scraper, AI Search
 *                        Crawler); "Search bot", "Crawler" and the rest stay out. Examples from
 *                        its Tests/fixtures/bots.yml.
 *   crawler-user-agents  monperrus/crawler-user-agents crawler-user-agents.json: entries tagged
 *                        "ai-crawler" (an entry tagged only "search-engine" stays out).
 *
 * The registries key their entries by regex: a plain name is derived only where the regex is
 * literals and alternatives (regexNames); an example User-Agent that carries the name as the
 * start of a longer product token ("ProRata" in "ProRataInc ...") adds that token too.
 */

export interface ListedAgent {
  /** A product token as it appears in User-Agents. */
  name: string;
  /** What the list says the agent is: its description, category or tags. */
  function: string;
  /** The registry's regex the name was derived from. */
  regex?: string;
  /** The registry's own example User-Agent for the entry, one carrying the name where there is one. */
  example?: string;
  /** The registry's display name, where it differs from the token. */
  listed_as?: string;
}

export interface VendoredAiCrawlers {
  source: string;
  commit: string;
  committed_at: string;
  refreshed_at: string;
  agents: ListedAgent[];
}

export interface ListAt {
  commit: string;
  committedAt: string;
  refreshedAt: string;
}

export interface RobotsJson {
  [name: string]: { function?: string; operator?: string; description?: string };
}

/** regexes/bots.yml and Tests/fixtures/bots.yml, parsed. */
export interface DeviceDetectorBot { regex: string; name: string; category?: string }
export interface DeviceDetectorFixture { user_agent: string; bot?: { name?: string; category?: string } }

/** crawler-user-agents.json, parsed. */
export interface CrawlerUserAgent { pattern: string; instances?: string[]; tags?: string[] }

export interface AiCrawlerList {
  /** File stem in vendored/, and the label a listed name carries. */
  id: 'ai-robots-txt' | 'device-detector' | 'crawler-user-agents';
  repo: string;
  branch: string;
  /** The raw files read at the commit, in the order `vendor` takes them. */
  files: string[];
  source: string;
}

export const AI_CRAWLER_LISTS: readonly AiCrawlerList[] = [
  { id: 'ai-robots-txt', repo: 'ai-robots-txt/ai.robots.txt', branch: 'main', files: ['robots.json'], source: 'https://github.com/ai-robots-txt/ai.robots.txt (robots.json)' },
  {
    id: 'device-detector', repo: 'matomo-org/device-detector', branch: 'master', files: ['regexes/bots.yml', 'Tests/fixtures/bots.yml'],
    source: 'https://github.com/matomo-org/device-detector (regexes/bots.yml, categories "AI ...")',
  },
  {
    id: 'crawler-user-agents', repo: 'monperrus/crawler-user-agents', branch: 'master', files: ['crawler-user-agents.json'],
    source: 'https://github.com/monperrus/crawler-user-agents (crawler-user-agents.json, tag "ai-crawler")',
  },
];

const header = (source: string, at: ListAt) => ({ source, commit: at.commit, committed_at: at.committedAt, refreshed_at: at.refreshedAt });

/** The vendored form of ai.robots.txt's robots.json. */
export function vendoredAiCrawlers(robots: RobotsJson, at: ListAt): VendoredAiCrawlers {
  return {
    ...header(AI_CRAWLER_LISTS[0]!.source, at),
    agents: Object.entries(robots).map(([name, entry]) => ({ name, function: entry.function ?? '' })),
  };
}

/** The vendored form of device-detector's AI entries, with its fixtures' User-Agents as examples. */
export function vendoredDeviceDetector(bots: DeviceDetectorBot[], fixtures: DeviceDetectorFixture[], at: ListAt): VendoredAiCrawlers {
  const ai = bots.filter((bot) => /^AI /.test(bot.category ?? ''));
  const agents = ai.flatMap((bot) => {
    const names = regexNames(bot.regex);
    // Fixtures name the bot as the list does, with "$1" filled in.
    const examples = fixtures.filter((f) => f.bot?.category === bot.category && (f.bot?.name === bot.name || names.includes(f.bot?.name ?? ''))).map((f) => String(f.user_agent));
    return rows(names, examples, { function: bot.category!, regex: bot.regex, listedAs: bot.name.includes('$') ? undefined : bot.name });
  });
  return { ...header(AI_CRAWLER_LISTS[1]!.source, at), agents: unique(agents) };
}

/** The vendored form of crawler-user-agents' entries tagged "ai-crawler". */
export function vendoredCrawlerUserAgents(entries: CrawlerUserAgent[], at: ListAt): VendoredAiCrawlers {
  const agents = entries
    .filter((entry) => entry.tags?.includes('ai-crawler'))
    .flatMap((entry) => rows(regexNames(entry.pattern), entry.instances ?? [], { function: entry.tags!.join(', '), regex: entry.pattern }));
  return { ...header(AI_CRAWLER_LISTS[2]!.source, at), agents: unique(agents) };
}

function rows(names: string[], examples: string[], entry: { function: string; regex: string; listedAs?: string }): ListedAgent[] {
  const all = [...new Set([...names, ...names.flatMap((name) => examples.map((ua) => longerToken(name, ua)).filter((t): t is string => !!t))])];
  return all.map((name) => {
    // The entry's own example even where it spells the name otherwise: the bench's held-out UA.
    const example = examples.find((ua) => carriesToken(ua, name)) ?? examples[0];
    return {
      name,
      function: entry.function,
      regex: entry.regex,
      ...(example ? { example } : {}),
      ...(entry.listedAs && entry.listedAs !== name ? { listed_as: entry.listedAs } : {}),
    };
  });
}

const unique = (agents: ListedAgent[]) => agents.filter((a, i) => agents.findIndex((b) => b.name.toLowerCase() === a.name.toLowerCase()) === i);

const TOKEN_CHAR = /[A-Za-z0-9_-]/;

/** Whether `ua` carries `name` as a product token (listed-ai-crawlers.ts matches the same way). */
export function carriesToken(ua: string, name: string): boolean {
  return occurrences(ua, name).some((at) => !TOKEN_CHAR.test(ua.charAt(at + name.length)));
}

function occurrences(ua: string, name: string): number[] {
  const out: number[] = [];
  const lower = ua.toLowerCase();
  for (let at = lower.indexOf(name.toLowerCase()); at >= 0; at = lower.indexOf(name.toLowerCase(), at + 1)) {
    if (at === 0 || !TOKEN_CHAR.test(ua.charAt(at - 1))) out.push(at);
  }
  return out;
}

/**
 * The longer product token an example spells where the name is only its start ("ProRataInc",
 * "crawl4ai-adapter"), when the rest is letters (a numeric instance id is no name); else null.
 */
export function longerToken(name: string, ua: string): string | null {
  for (const at of occurrences(ua, name)) {
    const rest = /^[A-Za-z0-9_-]+/.exec(ua.slice(at + name.length))?.[0] ?? '';
    if (/^-?[A-Za-z]+(?:-[A-Za-z]+)*$/.test(rest)) return ua.slice(at, at + name.length + rest.length);
  }
  return null;
}

/**
 * The plain names a registry regex stands for: literals, escaped punctuation, case pairs
 * ("[cC]"), groups of alternatives, optional groups. Anything else (".", "+", "\s", other
 * classes, anchors) makes the name unsound: []. A trailing "/" (the version's) is dropped.
 */
export function regexNames(regex: string): string[] {
  let i = 0;
  const fail = (): never => { throw new Error('not plain'); };
  const alternatives = (): string[] => {
    const out = sequence();
    while (regex[i] === '|') (i++, out.push(...sequence()));
    return out;
  };
  const sequence = (): string[] => {
    let out = [''];
    while (i < regex.length && regex[i] !== '|' && regex[i] !== ')') {
      const c = regex[i++]!;
      let part: string[];
      if (c === '(') {
        if (regex.startsWith('?:', i)) i += 2;
        else if (regex[i] === '?') fail();
        part = alternatives();
        if (regex[i++] !== ')') fail();
        if (regex[i] === '?') (i++, part.push(''));
      } else if (c === '\\') {
        const next = regex[i++] ?? fail();
        if (/[A-Za-z0-9]/.test(next)) fail();
        part = [next];
      } else if (c === '[') {
        const pair = /^([A-Za-z])([A-Za-z])\]/.exec(regex.slice(i));
        if (!pair || pair[1]!.toLowerCase() !== pair[2]!.toLowerCase()) fail();
        i += 3;
        part = [pair![1]!.toUpperCase()];
      } else if ('.*+?^${}]'.includes(c)) {
        part = fail();
      } else {
        part = [c];
      }
      out = out.flatMap((head) => part.map((tail) => head + tail));
      if (out.length > 16) fail();
    }
    return out;
  };
  try {
    const names = alternatives();
    if (i !== regex.length) return [];
    return [...new Set(names.map((n) => n.replace(/\/$/, '').trim()))].filter((n) => /^[A-Za-z0-9](?:[A-Za-z0-9 ._-]*[A-Za-z0-9])?$/.test(n));
  } catch {
    return [];
  }
}
