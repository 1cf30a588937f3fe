/**
 * `/tracking.js`: a small, dependency-free ES2017 script (one IIFE, every step inside
 * try/catch, so it never throws into the page). For visitors whose User-Agent is an AI
 * crawler (the same tables and order as `classifyUserAgent`, compiled in) it posts one visit
 * to the tracking endpoint, and for a crawler that names itself and nothing knows (the webhook
 * stores it apart, issue 46); for humans, link previewers, non-AI tools, monitors and other
 * automation it does nothing.
 *
 * Body: `{page_url, page_type: 'ai_site', page_title, user_agent, referrer, screen_width,
 * screen_height, language, timezone}` as JSON text. It is sent with `navigator.sendBeacon`
 * as a `text/plain;charset=UTF-8` string (a beacon cannot send `application/json` without a
 * CORS preflight, which beacons do not perform), falling back to `fetch` with
 * `keepalive: true` and `mode: 'no-cors'` (same simple content type). The webhook must
 * therefore accept a JSON body whatever its Content-Type says.
 *
 * Reference/web-protocols.md §10: most AI crawlers do not execute JavaScript, so this beacon
 * is an extra signal; server-side (edge log) classification is the main one.
 */
import { AI_BOT_PATTERNS, BARE_CRAWLER_WORD, GENERIC_BOT_EXCEPTIONS, GENERIC_CLIENT_PATTERN, HEADLESS_BROWSER_PATTERN, IN_APP_BROWSER_PATTERN, LINK_PREVIEW_PATTERNS, NAMED_CRAWLER, NON_AI_BOT_PATTERNS, NOT_A_CRAWLER, SEARCH_CRAWLER_PATTERNS } from './ai-bots';
import { LISTED_AI_CRAWLER_PATTERN } from './listed-ai-crawlers';

export interface TrackingScriptOptions {
  /** Absolute URL of `POST /webhooks/ai-recommendation-store`. */
  trackingEndpoint: string;
}

function regexLiteral(pattern: RegExp): string {
  return `new RegExp(${JSON.stringify(pattern.source)}, ${JSON.stringify(pattern.flags.replace(/[gy]/g, ''))})`;
}

/** The script text. Deterministic for a given endpoint. */
export function buildTrackingScript(options: TrackingScriptOptions): string {
  const endpoint = options.trackingEndpoint;
  if (!/^https?:\/\//i.test(endpoint)) throw new Error(`trackingEndpoint must be an absolute http(s) URL, got ${JSON.stringify(endpoint)}`);
  const list = (entries: ReadonlyArray<{ pattern: RegExp }>) => entries.map((entry) => `      ${regexLiteral(entry.pattern)}`).join(',\n');
  // JSON.stringify + `<` escaping keeps the endpoint a plain string literal whatever it holds.
  const endpointLiteral = JSON.stringify(endpoint).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  return `/* AI-site visit tracker: reports AI-bot (and search-crawler) visits only; does nothing for people. */
(function () {
  'use strict';
  try {
    var ENDPOINT = ${endpointLiteral};
    var BOT_PATTERNS = [
${list(AI_BOT_PATTERNS)}
    ];
    var SEARCH_PATTERNS = [
${list(SEARCH_CRAWLER_PATTERNS)}
    ];
    var NOT_AI_PATTERNS = [
${list([...LINK_PREVIEW_PATTERNS, ...NON_AI_BOT_PATTERNS])}
    ];
    var IN_APP = ${regexLiteral(IN_APP_BROWSER_PATTERN)};
    var LISTED_AI = ${regexLiteral(LISTED_AI_CRAWLER_PATTERN)};
    var CLIENT = ${regexLiteral(GENERIC_CLIENT_PATTERN)};
    var HEADLESS = ${regexLiteral(HEADLESS_BROWSER_PATTERN)};
    var NAMED = ${regexLiteral(NAMED_CRAWLER)};
    var NOT_CRAWLER = ${regexLiteral(NOT_A_CRAWLER)};
    var EXCEPTIONS = ${regexLiteral(GENERIC_BOT_EXCEPTIONS)};
    var BARE = ${regexLiteral(BARE_CRAWLER_WORD)};

    var nav = typeof navigator !== 'undefined' ? navigator : null;
    var ua = nav && typeof nav.userAgent === 'string' ? nav.userAgent : '';
    if (!ua) return;

    var matches = function (list) {
      for (var i = 0; i < list.length; i++) if (list[i].test(ua)) return true;
      return false;
    };
    // classifyUserAgent's order: AI tokens, search crawlers (the webhook files them apart), then
    // previewers / in-app browsers / non-AI tools, then the listed AI crawlers, then a crawler
    // that names itself and nothing knows (the webhook stores it apart, issue 46).
    var named = NAMED.exec(ua);
    var unidentified = !!named && !BARE.test(named[1]) && !CLIENT.test(ua) && !HEADLESS.test(ua) && !NOT_CRAWLER.test(ua) && !EXCEPTIONS.test(ua);
    var reported = matches(BOT_PATTERNS) || matches(SEARCH_PATTERNS)
      || (!matches(NOT_AI_PATTERNS) && !IN_APP.test(ua) && (LISTED_AI.test(ua) || unidentified));
    if (!reported) return;

    var read = function (fn, fallback) {
      try { var value = fn(); return value === undefined || value === null ? fallback : value; } catch (e) { return fallback; }
    };
    var payload = {
      page_url: read(function () { return String(location.href); }, ''),
      page_type: 'ai_site',
      page_title: read(function () { return String(document.title); }, ''),
      user_agent: ua,
      referrer: read(function () { return String(document.referrer); }, ''),
      screen_width: read(function () { return Number(screen.width) || 0; }, 0),
      screen_height: read(function () { return Number(screen.height) || 0; }, 0),
      language: read(function () { return String(nav.language || ''); }, ''),
      timezone: read(function () { return String(Intl.DateTimeFormat().resolvedOptions().timeZone || ''); }, '')
    };
    var body = JSON.stringify(payload);

    var sent = false;
    try {
      if (typeof nav.sendBeacon === 'function') sent = nav.sendBeacon(ENDPOINT, body) === true;
    } catch (e) { sent = false; }
    if (!sent) {
      try {
        if (typeof fetch === 'function') {
          var pending = fetch(ENDPOINT, {
            method: 'POST',
            body: body,
            headers: { 'Content-Type': 'text/plain;charset=UTF-8' },
            keepalive: true,
            mode: 'no-cors',
            credentials: 'omit'
          });
          if (pending && typeof pending.catch === 'function') pending.catch(function () {});
        }
      } catch (e) { /* nothing to do */ }
    }
  } catch (e) { /* never break the page */ }
})();
`;
}
