/** zod pieces shared by several routes. */
import { z } from 'zod';

/** The organization slug (business_id / org_slug / org_id are the same string). */
export const orgSlug = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,127}$/i, 'must be an organization slug (letters, digits, - and _)');

export const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date in the form YYYY-MM-DD');
