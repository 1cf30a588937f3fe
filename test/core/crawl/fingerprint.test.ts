import {
  analyzePage,
  contentFingerprint,
  extractMainContent,
  fingerprintInputOf,
  parseHtml,
  textFingerprint,
} from '../../../functions/core/crawl/fingerprint';
import { blockedReason, isHtmlContentType } from '../../../functions/core/crawl/responses';

interface Render {
  /** Seed for every per-request value (tokens, ids, timestamps, nonces). */
  seed: number;
  price?: string;
  paragraph?: string;
  extraItem?: string;
  /** Layout details a theme or an A/B test changes without changing the content. */
  abVariant?: string;
  indent?: string;
  useMain?: boolean;
}

/** A product page shaped like real storefront HTML, with every kind of per-request noise. */
function render(r: Render): string {
  const s = r.seed;
  const uuid = `${s}a1b2c3-d4e5-4f00-9abc-${String(s).padStart(12, '0')}`;
  const epoch = 1_760_000_000 + s;
  const ind = r.indent ?? '  ';
  const wrapperOpen = r.useMain === false ? '<div id="content">' : '<main id="MainContent" class="content-for-layout" role="main">';
  const wrapperClose = r.useMain === false ? '</div>' : '</main>';
  return `<!doctype html>
<html lang="en">
<head>
${ind}<meta charset="utf-8">
${ind}<title>Blue Mug – Acme Coffee</title>
${ind}<meta name="description" content="A sturdy blue mug.">
${ind}<meta name="shopify-y" content="${uuid}" data-expiration="${epoch * 1000}">
${ind}<meta name="csrf-token" content="tok-${s}">
${ind}<meta name="generated" content="2026-03-${10 + (s % 10)}T09:${10 + (s % 40)}:00Z">
${ind}<link rel="stylesheet" href="//shop.example/cdn/shop/t/4/assets/base.css?v=${1700000000 + s}" integrity="sha256-${s}abc">
${ind}<script id="__st" nonce="n${s}">var __st={"a":123,"offset":-18000,"reqid":"${uuid}-${epoch}","pageurl":"shop.example/products/blue-mug","u":"visitor-${s}"};</script>
${ind}<script nonce="n${s}">window.ShopifyAnalytics = window.ShopifyAnalytics || {}; window.ShopifyAnalytics.meta = {"page_view_event_id":"${s.toString(16)}ff"};</script>
${ind}<script id="captcha-bootstrap">!function(){var t=${epoch};}()</script>
${ind}<style nonce="n${s}">.x{color:red}</style>
</head>
<body class="template-product" data-timestamp="${epoch}">
<!-- rendered in ${s} ms at ${epoch} -->
<header class="header">
${ind}<nav><a href="/">Home</a><a href="/collections/all">Shop</a></nav>
${ind}<a href="/cart" id="cart-icon-bubble">Cart <span class="cart-count-bubble">${s % 5}</span></a>
${ind}<localization-form><select name="currency"><option>${s % 2 ? 'USD' : 'EUR'}</option></select></localization-form>
</header>
${wrapperOpen}
${ind}<div class="ab-${r.abVariant ?? 'a'}" data-section-id="template--${s}__main">
${ind}${ind}<h1>Blue Mug</h1>
${ind}${ind}<p class="price"><span class="money">${r.price ?? '$24.00'}</span></p>
${ind}${ind}<p>${r.paragraph ?? 'Holds 350 ml of coffee. Dishwasher safe.'}</p>
${ind}${ind}<ul><li>Stoneware</li><li>Made in Portugal</li>${r.extraItem ? `<li>${r.extraItem}</li>` : ''}</ul>
${ind}${ind}<form action="/cart/add" method="post">
${ind}${ind}${ind}<input type="hidden" name="form_type" value="product">
${ind}${ind}${ind}<input type="hidden" name="authenticity_token" value="csrf-${s}-${epoch}">
${ind}${ind}${ind}<input name="_csrf" value="x${s}">
${ind}${ind}${ind}<button type="submit" name="add">Add to cart</button>
${ind}${ind}${ind}<div class="shopify-payment-button">Buy with ${s % 2 ? 'ShopPay' : 'PayPal'}</div>
${ind}${ind}</form>
${ind}${ind}<img src="//shop.example/cdn/shop/files/mug.jpg?v=${s}" alt="Blue mug" width="600">
${ind}${ind}<time datetime="2026-01-01">January 1, 2026</time>
${ind}</div>
${ind}<cart-notification><div>Item added (${s})</div></cart-notification>
${ind}<div class="recently-viewed"><a href="/products/p${s}">Product ${s}</a></div>
${ind}<template><p>tpl ${s}</p></template>
${ind}<noscript>enable js ${s}</noscript>
${ind}<svg><text>${s}</text></svg>
${ind}<iframe srcdoc="${s}"></iframe>
${ind}<div hidden>hidden ${s}</div>
${wrapperClose}
<footer>© 2026 Acme · rendered ${epoch}</footer>
<script>var now=${epoch};</script>
</body>
</html>`;
}

describe('contentFingerprint', () => {
  const base = contentFingerprint(render({ seed: 1 }));

  it('is a sha256 hex digest', () => {
    expect(base).toMatch(/^[0-9a-f]{64}$/);
  });

  // [description, rendering that must give the SAME fingerprint as seed 1]
  const SAME: Array<[string, Render]> = [
    ['another request: Shopify __st/shopify-y/analytics ids, CSRF tokens, nonces, timestamps, cart count, currency', { seed: 2 }],
    ['a very different seed', { seed: 987654 }],
    ['a different A/B wrapper class', { seed: 3, abVariant: 'b' }],
    ['different indentation', { seed: 4, indent: '\t\t' }],
    ['extra spaces and line breaks in the text', { seed: 5, paragraph: 'Holds   350 ml of coffee.\n Dishwasher safe.' }],
  ];
  it.each(SAME)('is unchanged by %s', (_why, r) => {
    expect(contentFingerprint(render(r))).toBe(base);
  });

  // [description, rendering that must give a DIFFERENT fingerprint]
  const CHANGED: Array<[string, Render]> = [
    ['a changed price', { seed: 1, price: '$26.00' }],
    ['a changed paragraph', { seed: 1, paragraph: 'Holds 400 ml of coffee. Dishwasher safe.' }],
    ['an added list item', { seed: 1, extraItem: 'Microwave safe' }],
    ['a changed price on another request', { seed: 7, price: '$24.50' }],
  ];
  it.each(CHANGED)('changes with %s', (_why, r) => {
    expect(contentFingerprint(render(r))).not.toBe(base);
  });

  it('treats composed and decomposed accents as equal', () => {
    expect(contentFingerprint('<main><p>Caf\u00e9</p></main>')).toBe(contentFingerprint('<main><p>Cafe\u0301</p></main>'));
    expect(contentFingerprint('<main><p>a\u00a0b\u200bc</p></main>')).toBe(contentFingerprint('<main><p>a bc</p></main>'));
  });

  it('keeps structure that matters: a heading is not a paragraph', () => {
    expect(contentFingerprint('<main><h2>Care</h2></main>')).not.toBe(contentFingerprint('<main><p>Care</p></main>'));
  });

  it('hashes the main content, not the page chrome', () => {
    const page = (nav: string, footer: string) =>
      `<body><header><nav>${nav}</nav></header><main><p>Same</p></main><footer>${footer}</footer></body>`;
    expect(contentFingerprint(page('a', 'b'))).toBe(contentFingerprint(page('c', 'd')));
  });

  it('falls back to the body minus header/nav/footer/aside', () => {
    expect(contentFingerprint(render({ seed: 1, useMain: false }))).toBe(contentFingerprint(render({ seed: 2, useMain: false })));
    const input = fingerprintInputOf(parseHtml(render({ seed: 1, useMain: false })));
    expect(input).toContain('h1: Blue Mug');
    expect(input).not.toMatch(/Home|Cart|rendered|Acme/);
  });

  it('handles fragments without <html>/<body>', () => {
    expect(fingerprintInputOf(parseHtml('<p>x</p><footer>f</footer>'))).toBe('p: x');
    expect(contentFingerprint('<p>x</p>')).not.toBe(contentFingerprint('<p>y</p>'));
  });

  it('uses a single article when there is no main', () => {
    const input = fingerprintInputOf(parseHtml('<body><div>promo 1</div><article><h1>Post</h1><p>Body</p></article></body>'));
    expect(input).toBe('h1: Post\np: Body');
  });

  it('serializes the product page as expected (a button label stays: "Sold out" is a change)', () => {
    expect(fingerprintInputOf(parseHtml(render({ seed: 1 })))).toBe(
      ['h1: Blue Mug', 'p: $24.00', 'p: Holds 350 ml of coffee. Dishwasher safe.', 'li: Stoneware', 'li: Made in Portugal', 'Add to cart', 'January 1, 2026'].join('\n'),
    );
  });

  it('fingerprints text too (provider markdown without HTML)', () => {
    expect(textFingerprint('# A\n\n  b  c\n')).toBe(textFingerprint('# A\nb c'));
    expect(textFingerprint('# A\nb c')).not.toBe(textFingerprint('# A\nb d'));
  });
});

describe('extractMainContent', () => {
  const html = `<html><head><title> Blue Mug – Acme </title><meta name="description" content="A sturdy mug.">
    <base href="https://shop.example/products/"></head>
    <body><header><nav><a href="/">Home</a></nav></header>
    <main><!-- cache: hit 2026-03-01 --><h1>Blue Mug</h1><p>See <a href="../pages/care">care</a> and <a href="javascript:x()">js</a>.</p>
    <img src="mug.jpg" alt="mug"><img src="data:image/png;base64,AAAA" alt="inline"><script>x()</script></main>
    <footer>Footer text</footer></body></html>`;

  it('returns title, description and the cleaned main HTML with absolute URLs', () => {
    const main = extractMainContent(html, 'https://shop.example/products/blue-mug');
    expect(main.title).toBe('Blue Mug – Acme');
    expect(main.description).toBe('A sturdy mug.');
    expect(main.mainHtml).toContain('<h1>Blue Mug</h1>');
    expect(main.mainHtml).toContain('href="https://shop.example/pages/care"');
    expect(main.mainHtml).toContain('src="https://shop.example/products/mug.jpg"');
    expect(main.mainHtml).not.toMatch(/data:image|javascript:|<script|Footer text|Home|<!--|cache: hit/);
  });

  it('falls back to og:title, then the first h1, for the title', () => {
    expect(extractMainContent('<head><meta property="og:title" content="OG"></head><h1>H</h1>', 'https://s.example/').title).toBe('OG');
    expect(extractMainContent('<h1> H1 title </h1>', 'https://s.example/').title).toBe('H1 title');
  });

  it('gives the same fingerprint as contentFingerprint from one parse', () => {
    const page = render({ seed: 9 });
    expect(analyzePage(page, 'https://shop.example/products/blue-mug').fingerprint).toBe(contentFingerprint(page));
  });
});

describe('blockedReason', () => {
  const ok = { url: 'https://shop.example/products/a', headers: {} };
  // [description, response, blocked?]
  const TABLE: Array<[string, Parameters<typeof blockedReason>[0], RegExp | null]> = [
    ['a normal page', { ...ok, status: 200, body: '<title>Blue Mug</title>' }, null],
    ['a plain 404', { ...ok, status: 404 }, null],
    ['a 500', { ...ok, status: 500 }, null],
    ['403 with cf-mitigated: challenge', { ...ok, status: 403, headers: { 'cf-mitigated': 'challenge' } }, /challenge/],
    ['200 with cf-mitigated: challenge', { ...ok, status: 200, headers: { 'cf-mitigated': 'challenge' } }, /challenge/],
    ['a plain 403', { ...ok, status: 403 }, /403/],
    ['429', { ...ok, status: 429 }, /429/],
    ['430 security rejection', { ...ok, status: 430 }, /430/],
    ['503', { ...ok, status: 503 }, /503/],
    ['a redirect to /password', { status: 200, url: 'https://shop.example/password', headers: {} }, /password/],
    ['a "Just a moment..." body', { ...ok, status: 200, body: '<html><head><title>Just a moment...</title>' }, /challenge/],
  ];
  it.each(TABLE)('%s', (_why, response, expected) => {
    const reason = blockedReason(response);
    if (expected === null) expect(reason).toBeNull();
    else expect(reason).toMatch(expected);
  });

  it('recognizes HTML content types', () => {
    expect(isHtmlContentType('text/html; charset=utf-8')).toBe(true);
    expect(isHtmlContentType('application/xhtml+xml')).toBe(true);
    expect(isHtmlContentType('application/json')).toBe(false);
    expect(isHtmlContentType(undefined)).toBe(false);
  });
});
