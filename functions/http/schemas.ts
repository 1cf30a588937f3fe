/** zod pieces shared by several routes. */
import * as z from 'zod/mini';
import { ORG_SLUG_PATTERN } from '../core/constants';

/** The organization slug (business_id / org_slug / org_id are the same string). */
export const orgSlug = z.string().check(z.regex(ORG_SLUG_PATTERN, 'must be an organization slug (letters, digits, - and _)'));

// The two below are marked pure so a bundle that imports this module without them leaves them
// (and the zod checks they need) out: esbuild keeps an unmarked top-level call.
/** A whole number, zero or more (a count, a total). */
export const count = /* @__PURE__ */ z.int().check(/* @__PURE__ */ z.minimum(0));
/** A string or null. */
export const nullableString = /* @__PURE__ */ z.nullable(/* @__PURE__ */ z.string());

/** True for a real UTC calendar day written YYYY-MM-DD (not 2026-02-30, not 2026-13-01). */
export function isCalendarDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const at = new Date(0);
  at.setUTCFullYear(y, mo - 1, d);
  return at.getUTCFullYear() === y && at.getUTCMonth() === mo - 1 && at.getUTCDate() === d;
}

/**
 * A date field: a real calendar day in the form YYYY-MM-DD. Checked in the request schema,
 * so an impossible day (2026-02-30, 2026-13-01) is a 400 naming the field before any work.
 */
export const isoDate = z.string().check(
  z.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date in the form YYYY-MM-DD'),
  z.refine((v) => !/^\d{4}-\d{2}-\d{2}$/.test(v) || isCalendarDate(v), { message: 'must be a real calendar day (YYYY-MM-DD)', abort: true }),
);
/** The same schema under the name that says what it checks. */
export const calendarDate = isoDate;

/** A required string, trimmed, non-empty, at most `max` characters. */
export const requiredText = (field: string, max: number) =>
  z.string({ error: `${field} is required` }).check(z.trim(), z.minLength(1, `${field} is required`), z.maxLength(max, `${field} is longer than ${max} characters`));

/** An optional product reference: the product slug or its entity id. */
export const productRef = z.optional(z.nullable(z.string().check(z.trim(), z.minLength(1), z.maxLength(255))));
