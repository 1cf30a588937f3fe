/**
 * Per-request noise, modelled on real Shopify storefront HTML (web-protocols.md §8): values a
 * naive raw-HTML hash would flag as a change on every fetch. This is the ONLY place content may
 * vary between two requests; everything else the store renders is deterministic.
 * Theme `?v=` cache-busters are deliberately NOT here: they change only on a theme publish.
 */
import { randomBytes, randomUUID } from 'node:crypto';

export const SHOP_ID = 58_204_119_041;
/** The published theme and its asset version; bumping these is a "theme publish". */
export const THEME_ID = 142_118_607_017;
export const THEME_VERSION = '171228846';

export interface Noise {
  /** CSP nonce put on every script tag of the response. */
  nonce: string;
  reqid: string;
  visitorToken: string;
  shopifyY: string;
  expirationMs: number;
  authenticityToken: string;
  pageViewEventId: string;
  renderedAt: string;
}

export function createNoise(): Noise {
  const now = Date.now();
  return {
    nonce: randomBytes(16).toString('base64'),
    reqid: `${randomUUID()}-${Math.floor(now / 1000)}`,
    visitorToken: randomBytes(12).toString('hex'),
    shopifyY: randomUUID(),
    expirationMs: now + 365 * 24 * 3600_000,
    authenticityToken: randomBytes(32).toString('base64url'),
    pageViewEventId: randomBytes(20).toString('hex'),
    renderedAt: new Date(now).toISOString(),
  };
}
