/** Article slugs never collide with the AI site's own names, Q&A, product, collection or article slugs. */
import {
  ARTICLE_RESERVED_SLUGS,
  MAX_ARTICLE_SLUG_LENGTH,
  articleFilePath,
  articlePath,
  articleSlug,
  slugOfArticlePath,
  takenSlugs,
  titleWithoutYear,
} from '../../../functions/core/articles/slugs';
import { buildSiteFiles } from '../../../functions/core/site/build';
import { RESERVED_AI_NAMES } from '../../../functions/core/site/paths';
import { INDEXNOW_KEY, NOW, TRACKING_ENDPOINT, narrative, snapshot } from '../site/fixtures';

const NONE: ReadonlySet<string> = new Set();

function siteTaken(): Set<string> {
  const files = buildSiteFiles(snapshot(), narrative(), { now: NOW, indexNowKey: INDEXNOW_KEY, trackingEndpoint: TRACKING_ENDPOINT });
  return takenSlugs(files.map((f) => f.path));
}

describe('articleSlug', () => {
  it('is the slugified title without the year the refresh moves', () => {
    expect(articleSlug('What are the best online specialty coffee shops in 2026?', NONE)).toBe('what-are-the-best-online-specialty-coffee-shops');
    expect(articleSlug('Where can students in São Paulo buy café & tea online?', NONE)).toBe('where-can-students-in-sao-paulo-buy-cafe-and-tea-online');
    expect(titleWithoutYear('Is the Model 2025 Burr Grinder worth buying in 2026?')).toBe('Is the Model 2025 Burr Grinder worth buying?');
    expect(articleSlug('???', NONE)).toBe('question');
  });

  it('is at most 80 characters, cut at a word boundary, also with a suffix', () => {
    const title = 'Where can small business owners in San Francisco buy the Extra Large Hand Thrown Stoneware Pour Over Coffee Dripper Set online?';
    const slug = articleSlug(title, NONE);
    expect(slug.length).toBeLessThanOrEqual(MAX_ARTICLE_SLUG_LENGTH);
    expect(`${slugOfTitle(title)}-`.startsWith(`${slug}-`)).toBe(true);
    const second = articleSlug(title, new Set([slug]));
    expect(second.length).toBeLessThanOrEqual(MAX_ARTICLE_SLUG_LENGTH);
    expect(second).toMatch(/^[a-z0-9-]+-2$/);
    expect(second).not.toMatch(/--/);
  });

  it.each([...new Set([...RESERVED_AI_NAMES, 'llms', 'sitemap', 'robots', 'data', 'index', 'tracking', 'favicon', 'indexing-key'])])(
    'never takes the reserved name %s',
    (name) => {
      const title = `${name.replace(/-/g, ' ')}?`;
      expect(articleSlug(title, NONE)).toBe(`${name}-2`);
    },
  );

  it('avoids a Q&A slug of the site (its /ai/<slug>/ would shadow the article)', () => {
    const taken = siteTaken();
    expect(taken).toContain('how-fresh-is-the-coffee');
    expect(articleSlug('How fresh is the coffee?', taken)).toBe('how-fresh-is-the-coffee-2');
  });

  it('avoids product and collection slugs', () => {
    const taken = siteTaken();
    expect(taken).toContain('ethiopia-yirgacheffe');
    expect(taken).toContain('coffee-beans');
    expect(articleSlug('Ethiopia Yirgacheffe?', taken)).toBe('ethiopia-yirgacheffe-2');
    expect(articleSlug('Coffee beans?', taken)).toBe('coffee-beans-2');
  });

  it('avoids existing articles, counting -2, -3, ...', () => {
    const title = 'What are the best coffee beans for students?';
    const first = articleSlug(title, NONE);
    const taken = new Set([first]);
    const second = articleSlug(title, taken);
    taken.add(second);
    const third = articleSlug(title.replace('?', ' in 2027?'), taken);
    expect([first, second, third]).toEqual([
      'what-are-the-best-coffee-beans-for-students',
      'what-are-the-best-coffee-beans-for-students-2',
      'what-are-the-best-coffee-beans-for-students-3',
    ]);
  });

  it('avoids the IndexNow key file name and replica slugs', () => {
    const taken = siteTaken();
    expect(taken).toContain(INDEXNOW_KEY);
    expect(taken).toContain('pages-about-us');
    expect(articleSlug('Pages about us?', taken)).toBe('pages-about-us-2');
  });
});

describe('paths', () => {
  it('an article lives at /<slug>/index.html, its article_path is /<slug>/', () => {
    expect(articlePath('best-coffee')).toBe('/best-coffee/');
    expect(articleFilePath('best-coffee')).toBe('/best-coffee/index.html');
    expect(slugOfArticlePath('/best-coffee/')).toBe('best-coffee');
    expect(slugOfArticlePath('/ai/best-coffee/')).toBe('best-coffee');
    expect(slugOfArticlePath('/ai/products/x/')).toBeNull();
  });

  it('takenSlugs reads every kind of name from the site’s paths', () => {
    const taken = takenSlugs([
      '/ai/products/mug/index.html', '/ai/collections/cups/index.html', '/ai/do-you-ship/index.html', '/ai/questions/index.html',
      '/pages/home.md', '/llms/mug.txt', '/best-mugs/index.html', '/llms.txt', '/data.json', '/abc123key.txt',
    ]);
    expect([...taken].sort()).toEqual(['abc123key', 'best-mugs', 'cups', 'data', 'do-you-ship', 'home', 'llms', 'mug', 'questions'].sort());
    for (const name of ['llms', 'sitemap', 'robots', 'index', 'data']) expect(ARTICLE_RESERVED_SLUGS.has(name)).toBe(true);
  });
});

function slugOfTitle(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}
