/**
 * The currency a store states for its prices. Shopify's `/products.json` carries none, so the
 * storefront is read (adapters/external/storefront.ts `storeCurrency`, all through the guarded
 * fetch), in this order, the first signal that names a real ISO 4217 code winning:
 *
 * 1. `/cart.js` `currency`: JSON, on every Shopify store, and answered in the same (cookie-less)
 *    market context as `/products.json`, so it names the currency those prices are in.
 * 2. The home page (and, when given, one product page): `Shopify.currency = {"active":"USD"}`
 *    (the presentment currency, same context), then `<meta property="og:price:currency">`,
 *    then JSON-LD `priceCurrency`, then `ShopifyAnalytics.meta.currency`, then the prices the
 *    page shows with their ISO code (`$55.00 USD`, `USD 55.00`: themes with currency codes on,
 *    such as Dawn's, print no other signal), the code most of them name. A currency sign alone
 *    (`$55.00`) names no currency: dollars are USD, CAD, AUD, NZD ...
 * 3. `/meta.json` `currency`: the shop's base currency (right unless a market converts prices).
 *
 * A store that states none gets null: no currency is ever assumed.
 */

let KNOWN: Set<string> | null = null;

function knownCurrencies(): Set<string> | null {
  if (KNOWN) return KNOWN;
  const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
  try {
    if (typeof intl.supportedValuesOf === 'function') KNOWN = new Set(intl.supportedValuesOf('currency'));
  } catch {
    KNOWN = null;
  }
  return KNOWN;
}

/** An ISO 4217 code (upper-cased) when `value` is one, else null. */
export function normalizeCurrency(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const code = value.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(code)) return null;
  const known = knownCurrencies();
  return !known || known.has(code) ? code : null;
}

function decodeAttr(value: string): string {
  return value.replace(/&quot;/g, '"').replace(/&amp;/g, '&').replace(/&#39;/g, "'");
}

function metaContent(html: string, property: string): string | null {
  const tags = html.match(/<meta\b[^>]*>/gi) ?? [];
  for (const tag of tags) {
    const name = /\b(?:property|name|itemprop)\s*=\s*["']([^"']+)["']/i.exec(tag)?.[1];
    if (!name || name.toLowerCase() !== property) continue;
    const content = /\bcontent\s*=\s*["']([^"']*)["']/i.exec(tag)?.[1];
    if (content) return decodeAttr(content);
  }
  return null;
}

function jsonLdCurrencies(html: string): string[] {
  const out: string[] = [];
  const blocks = html.match(/<script\b[^>]*type\s*=\s*["']application\/ld\+json["'][^>]*>[\s\S]*?<\/script>/gi) ?? [];
  for (const block of blocks) {
    const body = block.replace(/^<script\b[^>]*>/i, '').replace(/<\/script>$/i, '');
    for (const m of body.matchAll(/"priceCurrency"\s*:\s*"([^"]{3})"/g)) out.push(m[1] as string);
  }
  return out;
}

/** An amount with an ISO code beside it, either side: `$1,299.00 USD`, `USD 55.00`, `55,00 EUR`. */
const CODED_PRICE = /(?:[$€£¥]\s?)?\d{1,3}(?:[,.\s]\d{3})*(?:[.,]\d{2})?\s?([A-Z]{3})\b|\b([A-Z]{3})\s?[$€£¥]?\s?\d/g;

/** The ISO code most of the page's shown prices carry, or null (text only: scripts and tags dropped). */
function currencyOfShownPrices(html: string): string | null {
  const text = html.replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' ').replace(/&nbsp;/g, ' ');
  const counts = new Map<string, number>();
  for (const m of text.matchAll(CODED_PRICE)) {
    const code = normalizeCurrency(m[1] ?? m[2]);
    if (code) counts.set(code, (counts.get(code) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

/** The currency a storefront HTML page states, by the order in this module's comment; null if none. */
export function currencyFromHtml(html: string): string | null {
  const candidates: Array<string | null | undefined> = [
    /Shopify\.currency\s*=\s*\{[^}]*?"active"\s*:\s*"([A-Za-z]{3})"/.exec(html)?.[1],
    metaContent(html, 'og:price:currency'),
    metaContent(html, 'product:price:currency'),
    ...jsonLdCurrencies(html),
    /ShopifyAnalytics\.meta\s*=[^;]*?"currency"\s*:\s*"([A-Za-z]{3})"/.exec(html)?.[1],
  ];
  for (const c of candidates) {
    const code = normalizeCurrency(c);
    if (code) return code;
  }
  return currencyOfShownPrices(html);
}

/** `currency` of a `/cart.js` or `/meta.json` body; null if absent or not a code. */
export function currencyFromJson(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null;
  return normalizeCurrency((body as Record<string, unknown>).currency);
}
