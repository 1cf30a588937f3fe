/**
 * What the store itself says about its organization, for the Organization node of data.json:
 * a logo, its social profiles (`sameAs`) and a contact point. Each only when actually found on
 * the store's scraped pages or by onboarding (the favicon); nothing is ever invented.
 *
 * - logo: an image on the home page whose alt text or file name says "logo", else the store's
 *   icon found by onboarding 1d (`StoreIdentity.logoUrl`).
 * - sameAs: links to profile pages on the major social networks found on any scraped page
 *   (share/intent/search links are not profiles), at most 10.
 * - contact: the email and telephone of the contact page (mailto:/tel: links, or a labelled
 *   "Email:"/"Phone:" line); without a contact page, mailto:/tel: links anywhere.
 */
import type { ScrapedPage, StoreSnapshot } from './types';

export interface OrganizationProfile {
  logo: string | null;
  sameAs: string[];
  contact: { email: string | null; telephone: string | null; url: string | null } | null;
}

export const MAX_SAME_AS = 10;

const SOCIAL_HOSTS = /^(?:[a-z0-9-]+\.)*(facebook\.com|instagram\.com|twitter\.com|x\.com|tiktok\.com|youtube\.com|pinterest\.com|pinterest\.[a-z.]+|linkedin\.com|threads\.net|vimeo\.com|tumblr\.com|snapchat\.com|bsky\.app|mastodon\.social)$/i;
/** Paths that are actions, not profiles. */
const NOT_A_PROFILE = /^\/(?:sharer|share|intent|dialog|plugins|hashtag|search|explore|watch|embed|pin|sharearticle|login|signup|home|p|reel|status|tr|groups|events|shorts|results|feed)(?:[/.?]|$)/i;
/** Hosts whose profile URL takes two path segments (`/company/<name>`, `/channel/<id>`). */
const TWO_SEGMENT = /^\/(?:company|school|in|showcase|channel|c|user)$/i;

function absolute(target: string, base: string): URL | null {
  try {
    return new URL(target.replace(/^<|>$/g, ''), base);
  } catch {
    return null;
  }
}

/** Every link and image target of a page's markdown (and bare URLs), absolute. */
function linkTargets(page: ScrapedPage): Array<{ url: URL; label: string; image: boolean }> {
  const out: Array<{ url: URL; label: string; image: boolean }> = [];
  for (const m of page.markdown.matchAll(/(!?)\[([^\]]*)\]\(\s*(<[^>]+>|[^\s)]+)[^)]*\)/g)) {
    const url = absolute(m[3] as string, page.url);
    if (url) out.push({ url, label: m[2] as string, image: m[1] === '!' });
  }
  for (const m of page.markdown.matchAll(/(?:^|[\s(])(https?:\/\/[^\s)<>\]]+)/g)) {
    const url = absolute(m[1] as string, page.url);
    if (url) out.push({ url, label: '', image: false });
  }
  return out;
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}

export function socialProfileUrl(url: URL): string | null {
  if (!/^https?:$/.test(url.protocol) || !SOCIAL_HOSTS.test(url.hostname)) return null;
  const segments = url.pathname.split('/').filter(Boolean);
  if (!segments.length || NOT_A_PROFILE.test(`/${segments.join('/')}`)) return null;
  // A profile is its first segment (`/harborandpine`, `/@harborandpine`), or two for `/company/<name>`.
  const keep = TWO_SEGMENT.test(`/${segments[0]}`) ? 2 : 1;
  if (segments.length < keep) return null;
  const host = url.hostname.toLowerCase().replace(/^(?:www|m|mobile)\./, '');
  return `https://${host === 'twitter.com' ? 'x.com' : host}/${segments.slice(0, keep).join('/')}`;
}

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,24}/;

function validEmail(value: string): string | null {
  const email = value.trim().replace(/^mailto:/i, '').split('?')[0]?.trim() ?? '';
  if (!new RegExp(`^${EMAIL.source}$`).test(email)) return null;
  if (/\.(png|jpe?g|gif|webp|svg|avif)$/i.test(email) || /^(?:no-?reply|donotreply)@/i.test(email)) return null;
  return email.toLowerCase();
}

function validPhone(value: string): string | null {
  const phone = value.replace(/^tel:/i, '').replace(/%20/g, ' ').trim();
  const digits = phone.replace(/\D/g, '');
  if (digits.length < 7 || digits.length > 15 || !/^[+\d() .\-/]+$/.test(phone)) return null;
  return phone;
}

const CONTACT_PATH = /(?:^|\/)(?:contact|contact-us|contactus|kontakt|get-in-touch|customer-service|support)(?:\/|$|\.)/i;

function contactOf(pages: readonly ScrapedPage[]): OrganizationProfile['contact'] {
  const live = pages.filter((p) => p.statusCode < 400);
  const contactPage = live.find((p) => CONTACT_PATH.test(pathOf(p.url)));
  const scope = contactPage ? [contactPage] : live;
  let email: string | null = null;
  let telephone: string | null = null;
  for (const page of scope) {
    for (const { url } of linkTargets(page)) {
      if (!email && url.protocol === 'mailto:') email = validEmail(decodeURIComponent(url.href));
      if (!telephone && url.protocol === 'tel:') telephone = validPhone(decodeURIComponent(url.href));
    }
    if (contactPage) {
      // Labelled lines only: a bare number in running text is not a statement of a phone line.
      const text = page.markdown;
      if (!email) email = validEmail(/\b(?:e-?mail|write to us|reach us)\b[^\n@]{0,40}?([A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,24})/i.exec(text)?.[1] ?? '');
      if (!email) email = validEmail(EMAIL.exec(text)?.[0] ?? '');
      if (!telephone) telephone = validPhone(/\b(?:phone|telephone|tel|call(?: us)?(?: at| on)?)\b\.?:?\s*(\+?[\d(][\d() .\-/]{6,20}\d)/i.exec(text)?.[1] ?? '');
    }
  }
  if (!email && !telephone) return null;
  return { email, telephone, url: contactPage?.url ?? null };
}

function logoOf(snapshot: StoreSnapshot): string | null {
  const home = snapshot.pages.find((p) => p.kind === 'home' && p.statusCode < 400);
  if (home) {
    for (const t of linkTargets(home)) {
      if (t.image && /^https?:$/.test(t.url.protocol) && (/\blogo\b/i.test(t.label) || /logo/i.test(t.url.pathname))) return t.url.href;
    }
  }
  const icon = snapshot.business.logoUrl;
  return icon && /^https?:\/\//i.test(icon) ? icon : null;
}

/** The organization facts found on the store (see the module comment). */
export function organizationProfile(snapshot: StoreSnapshot): OrganizationProfile {
  const sameAs: string[] = [];
  const seen = new Set<string>();
  for (const page of snapshot.pages) {
    if (page.statusCode >= 400) continue;
    for (const { url, image } of linkTargets(page)) {
      if (image) continue;
      const profile = socialProfileUrl(url);
      const key = profile?.toLowerCase();
      if (!profile || !key || seen.has(key) || sameAs.length >= MAX_SAME_AS) continue;
      seen.add(key);
      sameAs.push(profile);
    }
  }
  return { logo: logoOf(snapshot), sameAs, contact: contactOf(snapshot.pages) };
}
