/**
 * Store tags that are meant for shoppers vs. tags the store's apps and theme use internally.
 * Shopify themes and apps drive badges, filters, tabs and product groups from tags such as
 * `__label:New`, `YGroup_mats`, `filter-color-black`, `spo-default`, `pr_reviewed`; those
 * are machinery, not descriptions, and must never become keywords, "Tags:" lines or prompts.
 */

/** Prefixes of app/theme tags (case-insensitive). */
const INTERNAL_PREFIX = /^(?:_|ygroup|filter[-_:]|meta[-_:]|spo[-_]|sca[-_]|pfs[-_:]|gf[-_]|pr[-_]|bc[-_]|judgeme|yotpo|klaviyo|globo|boost[-_]|sw[-_]|badge[-_:]|label[-_:]|tab[-_:]|hide|hidden|noindex|no-index|exclude|wholesale[-_]|b2b[-_]|sync[-_]|import[-_]|feed[-_]|gmc[-_]|google[-_]|fb[-_]|shopify[-_]|related[-_:]|upsell[-_:]|cross[-_]?sell|bundle[-_:]|sort[-_:]|collection[-_:]|variant[-_:]|size[-_]chart|sizechart|template[-_:]|layout[-_:]|theme[-_:])/i;

/**
 * True for a tag that is machinery rather than a description: an app/theme prefix, a
 * `key:value` or `key=value` pair, no letters at all, an id- or hash-like token, or
 * snake/kebab-case with a digit (`sku-1234`, `v2_import`).
 */
export function isInternalTag(tag: string): boolean {
  const t = tag.trim();
  if (!t) return true;
  if (INTERNAL_PREFIX.test(t)) return true;
  if (/[:=|{}<>\\]/.test(t)) return true;
  if (!/\p{L}/u.test(t)) return true;
  if (/^[0-9a-f]{12,}$/i.test(t) || /\d{5,}/.test(t)) return true;
  if (!/\s/.test(t) && /[_]/.test(t)) return true;
  if (!/\s/.test(t) && /-/.test(t) && /\d/.test(t)) return true;
  return t.length > 60;
}

/** The shopper-facing tags, de-duplicated case-insensitively, in store order. */
export function publicTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of tags) {
    const tag = raw.replace(/\s+/g, ' ').trim();
    const key = tag.toLowerCase();
    if (!tag || isInternalTag(tag) || seen.has(key)) continue;
    seen.add(key);
    out.push(tag);
  }
  return out;
}
