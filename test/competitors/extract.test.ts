import { readPage, pageText, decodeEntities } from '../../functions/core/competitors/html';
import { blockedReason as blockedResponse } from '../../functions/core/crawl/responses';
import { extractProfile, extractStrengths, nameFromTitle } from '../../functions/core/competitors/extract';
import { competitorPage } from './support';

const THEME_PAGE = competitorPage({
  name: 'Northbound Coffee Roasters',
  tagline: 'Small-batch coffee, roasted to order',
  description: 'Northbound Coffee Roasters roasts single-origin beans in Portland and ships them fresh.',
  products: ['Ethiopia Guji Natural', 'Colombia Huila Washed', 'House Espresso Blend'],
  claims: ['Free shipping on orders over $40.', 'Every bag is roasted within 24 hours of shipping.', 'Certified organic and fair trade since 2011.', 'Rated 4.9/5 by over 12,000 customers.'],
  audience: 'Designed for home baristas and coffee lovers who want café-quality espresso at home.',
  origin: 'https://northbound.example',
});

describe('reading a competitor page without a DOM library', () => {
  test('title, meta, JSON-LD and main blocks; chrome, scripts, forms and cookie banners left out', () => {
    const page = readPage(THEME_PAGE, 'https://northbound.example/');
    expect(page.lang).toBe('en');
    expect(page.title).toBe('Northbound Coffee Roasters | Small-batch coffee, roasted to order');
    expect(page.meta['og:site_name']).toBe('Northbound Coffee Roasters');
    expect(page.jsonLd).toHaveLength(2);
    const texts = page.blocks.map((b) => b.text);
    expect(texts).toContain('Small-batch coffee, roasted to order');
    expect(texts).toContain('Free shipping on orders over $40.');
    const all = texts.join('\n');
    for (const noise of ['dataLayer', 'not content', 'Spring sale', 'About', 'All rights reserved', 'newsletter', 'cookies', 'Add to cart']) {
      expect(all).not.toContain(noise);
    }
  });

  test('name, description, products (JSON-LD and product cards) and the stated audience', () => {
    const profile = extractProfile(readPage(THEME_PAGE, 'https://northbound.example/'), 'https://northbound.example');
    expect(profile).toEqual({
      name: 'Northbound Coffee Roasters',
      description: 'Northbound Coffee Roasters roasts single-origin beans in Portland and ships them fresh.',
      products: ['Ethiopia Guji Natural', 'Colombia Huila Washed', 'House Espresso Blend'],
      targetMarket: 'home baristas and coffee lovers who want café-quality espresso at home',
    });
  });

  test('strengths are sentences of the page itself, strongest claims first', () => {
    const strengths = extractStrengths(readPage(THEME_PAGE, 'https://northbound.example/'));
    expect(strengths.length).toBeGreaterThanOrEqual(3);
    for (const s of strengths) expect(THEME_PAGE).toContain(s.replace(/&/g, '&amp;'));
    expect(strengths).toContain('Certified organic and fair trade since 2011.');
    expect(strengths).toContain('Rated 4.9/5 by over 12,000 customers.');
  });

  test('a page without markup hints: name from the title, products from product headings, no invented audience', () => {
    const html = `<html><head><title>Home – Fernwood Ceramics</title>
      <meta name="description" content="Stoneware mugs &amp; plates, thrown by hand in Vermont."></head>
      <body><header><a href="/">Fernwood</a><ul><li>Menu item</li></ul></header>
      <div class="hero"><h1>Pottery for every&nbsp;table</h1></div>
      <div id="product-grid"><div><h3>Speckled Mug</h3><p>$32</p></div><div><h3>Dinner Plate &#8211; Sage</h3></div><h3>Featured products</h3></div>
      <p>Each piece is hand-thrown in our Burlington studio and fired twice.
      <p>Made for you.
      <footer><p>Footer text</p></footer></body></html>`;
    const page = readPage(html, 'https://fernwood-ceramics.example/');
    expect(page.blocks.map((b) => b.text)).not.toContain('Menu item');
    expect(page.blocks.map((b) => b.text)).not.toContain('Footer text');
    const profile = extractProfile(page, 'https://fernwood-ceramics.example');
    expect(profile.name).toBe('Fernwood Ceramics');
    expect(profile.description).toBe('Stoneware mugs & plates, thrown by hand in Vermont.');
    expect(profile.products).toEqual(['Speckled Mug', 'Dinner Plate – Sage']);
    expect(profile.targetMarket).toBe('');
    expect(extractStrengths(page)).toEqual(['Stoneware mugs & plates, thrown by hand in Vermont.', 'Each piece is hand-thrown in our Burlington studio and fired twice.']);
  });

  test('JSON-LD @graph with an OnlineStore, a Product and an audience', () => {
    const html = `<html><head><title>Shop</title><script type="application/ld+json">
      {"@context":"https://schema.org","@graph":[
        {"@type":"WebSite","name":"Trailhead Site"},
        {"@type":["OnlineStore"],"name":"Trailhead Supply Co.","description":"Ultralight backpacking gear.","audience":{"@type":"Audience","audienceType":"thru-hikers and ultralight backpackers"}},
        {"@type":"Product","name":"Arc 20 Quilt"}]}
      </script><script type="application/ld+json">{ broken json </script></head><body><main><p>Gear that goes the distance.</p></main></body></html>`;
    const profile = extractProfile(readPage(html, 'https://trailhead.example/'), 'https://trailhead.example');
    expect(profile).toEqual({
      name: 'Trailhead Supply Co.',
      description: 'Ultralight backpacking gear.',
      products: ['Arc 20 Quilt'],
      targetMarket: 'thru-hikers and ultralight backpackers',
    });
  });

  test('names from titles: the part that matches the domain, else the shorter end; domain as a last resort', () => {
    expect(nameFromTitle('Buy coffee online | Bluebird Roasters', 'https://bluebirdroasters.example')).toBe('Bluebird Roasters');
    expect(nameFromTitle('Homepage - Acme', 'https://zzz.example')).toBe('Acme');
    expect(nameFromTitle('Acme: fresh coffee delivered to your door every week', 'https://zzz.example')).toBe('Acme');
    const page = readPage('<html><body><p>Hello there, this is a page with no title at all.</p></body></html>', 'https://quiet-fox.example/');
    expect(extractProfile(page, 'https://quiet-fox.example').name).toBe('Quiet Fox');
  });

  test('scraped content is markdown-like and capped', () => {
    const text = pageText(readPage(THEME_PAGE, 'https://northbound.example/'));
    expect(text).toContain('# Small-batch coffee, roasted to order');
    expect(text).toContain('### Ethiopia Guji Natural');
    expect(text).toContain('- Free shipping on orders over $40.');
    expect(pageText(readPage(THEME_PAGE, 'https://northbound.example/'), 60).length).toBeLessThanOrEqual(60);
  });

  test('entities and bot challenges', () => {
    expect(decodeEntities('Caf&eacute; &amp; Co &#8212; &#x1F600; &unknown; &lt;b&gt;')).toBe('Café & Co — 😀 &unknown; <b>');
    expect(blockedResponse({ status: 403, headers: {} })).toMatch(/403/);
    expect(blockedResponse({ status: 200, headers: {}, body: '<title>Just a moment...</title>' })).toMatch(/challenge/);
    expect(blockedResponse({ status: 200, headers: { 'cf-mitigated': 'challenge' } })).toMatch(/challenge/);
    expect(blockedResponse({ status: 200, headers: {}, body: '<title>Rival</title>' })).toBeNull();
  });

  test('hostile markup stays linear: deep nesting, stray brackets, unclosed quotes and comments', () => {
    const inputs = [
      `<main>${'<div>'.repeat(50_000)}deep text`,
      `<div class="a${' x'.repeat(200_000)}<p>${'<'.repeat(100_000)}text`,
      `<!--${'x'.repeat(1_000_000)}`,
      `<script>${'x'.repeat(1_000_000)}`,
      `<p>${'</span>'.repeat(50_000)}${'<b>'.repeat(2_000)}${'</i>'.repeat(50_000)}`,
    ];
    const started = Date.now();
    for (const html of inputs) {
      const page = readPage(html, 'https://hostile.example/');
      extractProfile(page, 'https://hostile.example');
      extractStrengths(page);
    }
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
