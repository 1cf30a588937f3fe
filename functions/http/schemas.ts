/** zod pieces shared by several routes. */
import * as z from 'zod/mini';

/** The organization slug (business_id / org_slug / org_id are the same string). */
export const orgSlug = z.string().check(z.regex(/^[a-z0-9][a-z0-9_-]{0,127}$/i, 'must be an organization slug (letters, digits, - and _)'));

export const isoDate = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date in the form YYYY-MM-DD'));

/** A required string, trimmed, non-empty, at most `max` characters. */
export const requiredText = (field: string, max: number) =>
  z.string({ error: `${field} is required` }).check(z.trim(), z.minLength(1, `${field} is required`), z.maxLength(max, `${field} is longer than ${max} characters`));

/** An optional product reference: the product slug or its entity id. */
export const productRef = z.optional(z.nullable(z.string().check(z.trim(), z.minLength(1), z.maxLength(255))));
