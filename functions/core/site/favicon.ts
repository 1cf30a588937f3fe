/** The AI site's icon: the store's initial on a plain disc, so browsers never hit a 404. */
import { escapeHtml } from './html';
import { SITE_PATHS } from './paths';
import type { SiteFile } from './types';

export function buildFavicon(storeName: string): SiteFile {
  const initial = (storeName.trim().match(/[\p{L}\p{N}]/u)?.[0] ?? 'A').toUpperCase();
  const content = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><circle cx="32" cy="32" r="32" fill="#1f2328"/><text x="32" y="43" font-family="system-ui,sans-serif" font-size="34" font-weight="700" text-anchor="middle" fill="#fff">${escapeHtml(initial)}</text></svg>\n`;
  return { path: SITE_PATHS.favicon, content, contentType: 'image/svg+xml' };
}
