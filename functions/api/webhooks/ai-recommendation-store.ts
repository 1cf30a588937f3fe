/**
 * POST /webhooks/ai-recommendation-store (PUBLIC, D17): records one AI-bot visit.
 *
 * The body is the spec's JSON object whatever the Content-Type says: `/tracking.js` sends it
 * with `navigator.sendBeacon` as `text/plain;charset=UTF-8` (a beacon cannot send
 * `application/json` without a CORS preflight), so the route takes the raw body and parses
 * it here: `text/plain`, `application/json` (and `+json` types) or no Content-Type; any other
 * type, a body that is not a JSON object or a field of the wrong type is 400 naming the field.
 *
 * Answers `{status, platform_id, platform_name, message}`: `success` (recorded, or already
 * recorded by another path), `ignored` (a human browser, a link previewer, a non-AI tool, or
 * a `page_url` whose host no business serves; nothing is stored) or `error` (400, with
 * `error` too). Rate-limited per client address across instances (RATE_LIMITS.aiRecommendation);
 * every visit stored here is marked `source: beacon`.
 */
import * as z from 'zod/mini';
import { safeParse } from 'zod/v4/core';
import { ValidationError } from '../../core/errors';
import { parseClientAddress } from '../../core/net/client-address';
import { BOT_PLATFORM_IDS } from '../../core/constants';
import { PAGE_TYPES } from '../../core/visits/visit';
import { beaconAddress, recordSighting } from '../../app/visits/record';
import { endpoint } from '../../http/endpoint';
import { publicAuth } from '../../http/auth';

export const MAX_BODY_BYTES = 16 * 1024;

const optionalText = (field: string, max: number) =>
  z.optional(z.nullable(z.string({ error: `${field} must be a string` }).check(z.maxLength(max, `${field} is longer than ${max} characters`))));
const optionalPixels = (field: string) =>
  z.optional(z.nullable(z.number({ error: `${field} must be an integer (pixels)` }).check(
    z.refine((n) => Number.isInteger(n) && n >= 0 && n <= 100_000, `${field} must be an integer from 0 to 100000 (pixels)`),
  )));

export const visitBody = z.object({
  page_url: z.string({ error: 'page_url is required and must be a string' }).check(
    z.trim(),
    z.minLength(1, 'page_url is required'),
    z.maxLength(2048, 'page_url is longer than 2048 characters'),
    z.refine((v) => {
      try {
        const url = new URL(v);
        return url.protocol === 'http:' || url.protocol === 'https:';
      } catch {
        return false;
      }
    }, 'page_url must be an absolute http(s) URL'),
  ),
  page_type: z.optional(z.nullable(z.enum(PAGE_TYPES as ['ai_site', 'boosted_page'], { error: 'page_type must be ai_site or boosted_page' }))),
  page_title: optionalText('page_title', 1024),
  user_agent: z.string({ error: 'user_agent is required and must be a string' }).check(
    z.trim(),
    z.minLength(1, 'user_agent is required'),
    z.maxLength(1024, 'user_agent is longer than 1024 characters'),
  ),
  ip_address: z.optional(z.nullable(z.string({ error: 'ip_address must be a string' }).check(
    z.refine((v) => v.trim() === '' || parseClientAddress(v) !== undefined, 'ip_address must be an IPv4 or IPv6 address'),
  ))),
  referrer: optionalText('referrer', 2048),
  screen_width: optionalPixels('screen_width'),
  screen_height: optionalPixels('screen_height'),
  language: z.optional(z.nullable(z.string({ error: 'language must be a string' }).check(
    z.regex(/^(?:[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*)?$/, 'language must be a language tag such as en-US'),
  ))),
  timezone: z.optional(z.nullable(z.string({ error: 'timezone must be a string' }).check(
    z.maxLength(64, 'timezone is longer than 64 characters'),
    z.regex(/^(?:[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*)?$/, 'timezone must be an IANA time zone name such as Europe/Paris'),
  ))),
});

type VisitBody = z.infer<typeof visitBody>;

const answered = {
  platform_id: z.enum(BOT_PLATFORM_IDS).check(z.describe('the AI platform of the User-Agent; unknown for an unrecognised crawler')),
  platform_name: z.string(),
  message: z.string().check(z.describe('what was done, or why nothing was')),
};
/**
 * `success`: recorded (or already recorded by another path); `ignored`: a human browser, a link
 * previewer, a non-AI tool or a host no business serves, nothing stored (D17). The 400 the
 * handler answers itself (`status: error`, with `error` too) has the document's error shape.
 */
const response = z.object({ status: z.enum(['success', 'ignored']), ...answered });

const JSON_LIKE = /^(?:text\/plain|application\/(?:[a-z.+-]*\+)?json)\b/i;

/** The raw body → the validated visit; ValidationError naming the field otherwise. */
export function parseVisitBody(raw: string, contentType: string | undefined): VisitBody {
  if (Buffer.byteLength(raw, 'utf8') > MAX_BODY_BYTES) throw new ValidationError(`body: larger than ${MAX_BODY_BYTES} bytes`);
  if (contentType && !JSON_LIKE.test(contentType.trim())) {
    throw new ValidationError(`body: unsupported Content-Type ${contentType.slice(0, 100)}: send the JSON object as text/plain or application/json`);
  }
  if (!raw.trim()) throw new ValidationError('body: a JSON object is required');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (err) {
    throw new ValidationError(`body: malformed JSON: ${(err as Error).message}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ValidationError('body: must be a JSON object');
  const result = safeParse(visitBody, parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    const field = issue.path.length ? issue.path.join('.') : 'body';
    throw new ValidationError(`${field}: ${issue.message}`);
  }
  return result.data;
}

const blankToNull = (v: string | null | undefined) => (v === undefined || v === null || v.trim() === '' ? null : v.trim());

export const handler = endpoint('POST /webhooks/ai-recommendation-store', { authenticator: publicAuth, response }, async ({ body, headers, clientIp, container }) => {
  let visit: VisitBody;
  try {
    visit = parseVisitBody(typeof body === 'string' ? body : '', headers['content-type']);
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    return { statusCode: 400, body: { status: 'error', platform_id: 'unknown', platform_name: 'Unknown', message: err.message, error: err.message } };
  }
  const ipAddress = blankToNull(visit.ip_address);
  const outcome = await recordSighting(container, {
    source: 'beacon',
    at: container.clock.now(),
    pageUrl: visit.page_url,
    userAgent: visit.user_agent,
    peer: beaconAddress(ipAddress, clientIp),
    // The body's ip_address is the caller's word: a vendor's addresses are checked against the caller itself (D193).
    observedAddress: clientIp,
    fields: {
      page_type: visit.page_type ?? 'ai_site',
      page_title: blankToNull(visit.page_title),
      ip_address: ipAddress ? parseClientAddress(ipAddress) ?? ipAddress : clientIp === 'unknown' ? null : clientIp,
      referrer: blankToNull(visit.referrer),
      screen_width: visit.screen_width ?? null,
      screen_height: visit.screen_height ?? null,
      language: blankToNull(visit.language),
      timezone: blankToNull(visit.timezone),
    },
  });
  return { body: outcome.response };
});
