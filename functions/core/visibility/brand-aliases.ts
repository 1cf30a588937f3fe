/**
 * Which other names of a store count as the store in an AI answer (issue 21, point 1).
 * Pure: the caller reads the evidence (catalogue, scraped pages, domains) and passes the
 * ordinary-word test (app/visibility/common-words.ts).
 *
 * Rule: a candidate alias (a word of the business name, a product line, a brand-like
 * vendor) that is a single word, or only part of the business name ("Harbor & Pine" of
 * "Harbor & Pine Coffee Co."), counts only when
 * - the store itself uses it standalone: a product's vendor field equal to it, its own
 *   pages or product titles writing it capitalised outside the full name, or its domain's
 *   first label equal to it ("sukha" of sukha.com); and
 * - for a single word, it is not an ordinary English word (`isOrdinaryWord`, a common
 *   English word list): "Finch" of "Larkspur & Finch" never counts, "Larkspur" may.
 * A candidate of two or more distinctive words that is not part of the name (a product
 * line "Cloud Nine") keeps the old rule: it counts when the store uses it (its titles).
 */
import { distinctiveTokens, nameTokens, replaceBusinessName } from '../text/name-match';

export interface AliasEvidence {
  businessName: string;
  /** Candidate aliases: brand words, product lines, brand-like vendors. */
  candidates: readonly string[];
  /** Vendor fields of the store's products. */
  vendors: readonly string[];
  /** The store's own texts: scraped pages' markdown, product titles. */
  texts: readonly string[];
  /** The store's hosts (store domain, custom domain): their first label is a standalone use. */
  domains: readonly string[];
}

const key = (name: string) => nameTokens(name).join(' ');

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The first label of a host, "www." dropped: "shop.sukha.com" → "shop"; "sukha.co.uk" → "sukha". */
export function domainLabel(host: string): string {
  const h = host.trim().toLowerCase().replace(/^[a-z]+:\/\//, '').replace(/[/:].*$/, '').replace(/^www\d*\./, '');
  return h.split('.')[0] ?? '';
}

/** Whether `text` writes `alias` on its own (capitalised, outside the full business name). */
export function usedStandalone(alias: string, text: string, businessName: string): boolean {
  const rest = replaceBusinessName(text, businessName, ' § ');
  const words = alias.trim().split(/\s+/).map(escapeRegExp).join(String.raw`[\s\-–&+]*(?:and\s+)?`);
  if (!words) return false;
  const re = new RegExp(String.raw`(?<![\p{L}\p{N}])${words}(?![\p{L}\p{N}])`, 'giu');
  for (const m of rest.matchAll(re)) if (/^\p{Lu}|\p{Lu}/u.test(m[0]) && !/^\p{Ll}+$/u.test(m[0])) return true;
  return false;
}

/**
 * A candidate as the store writes it: brand words come folded ("larkspur"), the matcher
 * reads an all-lower-case occurrence of a capitalised alias as an ordinary word, so the
 * casing of the vendor field or the business name is restored ("Larkspur").
 */
function asWritten(candidate: string, evidence: AliasEvidence): string {
  if (/\p{Lu}/u.test(candidate)) return candidate;
  const k = key(candidate);
  const vendor = evidence.vendors.find((v) => key(v) === k);
  if (vendor) return vendor.trim();
  const re = new RegExp(String.raw`(?<![\p{L}\p{N}])${escapeRegExp(candidate)}(?![\p{L}\p{N}])`, 'iu');
  const m = re.exec(evidence.businessName);
  return m ? m[0] : candidate;
}

/** The candidates that count as the store (see the module comment), as the store writes them, de-duplicated. */
export function brandAliases(evidence: AliasEvidence, isOrdinaryWord: (word: string) => boolean): string[] {
  const nameKey = key(evidence.businessName);
  const nameWords = new Set(distinctiveTokens(evidence.businessName));
  const vendorKeys = new Set(evidence.vendors.map(key).filter(Boolean));
  const labels = new Set(evidence.domains.map(domainLabel).filter(Boolean));
  const out: string[] = [];
  const seen = new Set<string>();
  for (const candidate of evidence.candidates) {
    const k = key(candidate);
    if (!k || k === nameKey || seen.has(k)) continue;
    seen.add(k);
    const tokens = distinctiveTokens(candidate);
    if (!tokens.length) continue;
    const partOfName = tokens.every((t) => nameWords.has(t));
    const single = tokens.length === 1;
    if (single && isOrdinaryWord(tokens[0])) continue;
    if (single || partOfName) {
      const standalone = vendorKeys.has(k)
        || labels.has(tokens.join(''))
        || evidence.texts.some((t) => usedStandalone(candidate, t, evidence.businessName));
      if (!standalone) continue;
    }
    out.push(asWritten(candidate, evidence));
  }
  return out;
}
