/**
 * Onboarding 1d: find the store's icon (the home page's `<link rel=icon>` family, else
 * `/favicon.ico`), check that it answers with an image, and store its URL on the business.
 */
import * as cheerio from 'cheerio';
import type { Container } from '../../container';
import type { SkippedStep } from './runs';
import { requireBusiness } from '../business';

const ICON_SELECTORS = ['link[rel~="icon"]', 'link[rel="shortcut icon"]', 'link[rel="apple-touch-icon"]'];

export async function fetchFavicon(container: Container, orgSlug: string): Promise<{ faviconUrl: string } | SkippedStep> {
  const business = await requireBusiness(container, orgSlug);
  const candidates: string[] = [];
  const home = await container.fetchUrl(`${business.url}/`, { maxBytes: 2 * 1024 * 1024 });
  if (home.status === 200) {
    const $ = cheerio.load(home.text());
    for (const selector of ICON_SELECTORS) {
      const href = $(selector).first().attr('href');
      if (href) candidates.push(new URL(href, home.url).toString());
    }
  }
  candidates.push(new URL('/favicon.ico', business.url).toString());
  for (const url of [...new Set(candidates)]) {
    if (!/^https?:/.test(url)) continue;
    const res = await container.fetchUrl(url, { maxBytes: 512 * 1024 }).catch(() => null);
    if (res?.status === 200 && /^image\//.test(res.headers['content-type'] ?? '')) {
      await container.businesses.setFavicon(orgSlug, res.url);
      return { faviconUrl: res.url };
    }
  }
  return { status: 'skipped', reason: `no favicon found on ${business.url} (checked ${candidates.length} candidates)` };
}
