/**
 * No dead "Related articles" links (issue 20): a publish drops, from every page's related
 * list, the articles the release no longer holds (an article that left with its product).
 */
import { withoutDeadRelatedLinks } from '../../../functions/core/site/related-links';
import type { SiteFile } from '../../../functions/core/site/types';

const page = (path: string, related: string[]): SiteFile => ({
  path,
  contentType: 'text/html; charset=utf-8',
  content: `<article>\n<h1>Q?</h1>\n<p>A.</p>\n<section>\n<h2>Related articles</h2>\n<ul>\n${related.map((r) => `<li><a href="${r}">About ${r}</a></li>`).join('\n')}\n</ul>\n</section>\n<section>\n<h2>Sources</h2>\n<ul>\n<li><a href="/ai/gone/">kept: not a related link</a></li>\n</ul>\n</section>\n</article>`,
});

test('links to articles the release does not hold leave; the others and other sections stay', () => {
  const files = [page('/a/index.html', ['/ai/b/', '/ai/gone/', '/ai/products/mug/']), page('/b/index.html', ['/ai/a/']), page('/ai/products/mug/index.html', [])];
  const [a, b] = withoutDeadRelatedLinks(files);
  expect(a!.content).toContain('<li><a href="/ai/b/">About /ai/b/</a></li>\n<li><a href="/ai/products/mug/">');
  expect(a!.content).not.toContain('About /ai/gone/');
  expect(a!.content).toContain('kept: not a related link');
  expect(b).toBe(files[1]);
});

test('a related list left empty goes with its heading', () => {
  const [a] = withoutDeadRelatedLinks([page('/a/index.html', ['/ai/gone/'])]);
  expect(a!.content).not.toContain('Related articles');
  expect(a!.content).toContain('<h2>Sources</h2>');
});
