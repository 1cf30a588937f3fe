/** A realistic hand-written store: 6 products, 3 collections, 5 pages, 6 FAQs (one of each kind of trouble). */
import type { DeployMetadata, SiteNarrative, StoreSnapshot } from '../../../functions/core/site/types';

export const STORE = 'https://northwind-coffee.example';
export const NOW = '2026-03-14T09:12:00.000Z';
export const INDEXNOW_KEY = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
export const TRACKING_ENDPOINT = 'https://api.aivis.example/webhooks/ai-recommendation-store';
export const HOSTILE_NAME = '<script>alert("pwn")</script> Mug & "Friends" </title>';

export function snapshot(): StoreSnapshot {
  return {
    business: { name: 'Northwind Coffee Roasters', orgSlug: 'northwind-coffee', url: STORE, domain: 'northwind-coffee.example' },
    products: [
      {
        productId: 'ethiopia-yirgacheffe',
        name: 'Ethiopia Yirgacheffe Whole Bean',
        url: `${STORE}/products/ethiopia-yirgacheffe`,
        description: 'A washed heirloom coffee from Gedeo.\n\nNotes of jasmine, bergamot and stone fruit. Roasted light on Tuesdays.',
        productType: 'Coffee Beans',
        vendor: 'Northwind Coffee Roasters',
        tags: ['single-origin', 'light roast', 'coffee-beans'],
        price: '18.50',
        compareAtPrice: '21.00',
        currency: 'USD',
        available: true,
        imageUrls: ['https://cdn.northwind-coffee.example/yirgacheffe.jpg'],
        updatedAt: '2026-03-01T12:00:00Z',
      },
      {
        productId: 'house-espresso-blend',
        name: 'House Espresso Blend',
        url: `${STORE}/products/house-espresso-blend`,
        description: 'Brazil and Guatemala, roasted medium-dark for milk drinks.',
        productType: 'Coffee Beans',
        vendor: 'Northwind Coffee Roasters',
        tags: ['espresso', 'blend'],
        price: '16.00',
        compareAtPrice: null,
        currency: 'USD',
        available: true,
        imageUrls: [],
        updatedAt: null,
      },
      {
        productId: 'decaf-colombia',
        name: 'Decaf Colombia (Swiss Water)',
        url: `${STORE}/products/decaf-colombia`,
        description: 'Chemical-free decaf with notes of cocoa and red apple.',
        productType: 'Coffee Beans',
        vendor: 'Northwind Coffee Roasters',
        tags: ['decaf'],
        price: '17.00',
        compareAtPrice: null,
        currency: 'USD',
        available: false,
        imageUrls: [],
        updatedAt: '2026-02-20T08:30:00Z',
      },
      {
        productId: 'ceramic-pour-over-dripper',
        name: 'Ceramic Pour-Over Dripper',
        url: `${STORE}/products/ceramic-pour-over-dripper`,
        description: 'Hand-glazed dripper for size 02 filters.',
        productType: 'Brewing Equipment',
        vendor: 'Kiln & Co',
        tags: ['pour-over', 'gift'],
        price: '32.00',
        compareAtPrice: null,
        currency: 'USD',
        available: true,
        imageUrls: ['https://cdn.northwind-coffee.example/dripper.jpg'],
        updatedAt: '2026-01-05T10:00:00Z',
      },
      {
        productId: 'model-2025-burr-grinder',
        name: 'Model 2025 Burr Grinder',
        url: `${STORE}/products/model-2025-burr-grinder`,
        description: 'Conical steel burrs, 40 grind settings.',
        productType: 'Brewing Equipment',
        vendor: 'Grindwell',
        tags: ['grinder'],
        price: '149.00',
        compareAtPrice: '179.00',
        currency: 'USD',
        available: true,
        imageUrls: [],
        updatedAt: '2025-11-11T11:11:11Z',
      },
      {
        productId: 'script-mug',
        name: HOSTILE_NAME,
        url: `${STORE}/products/script-mug?variant=1&ref="x"`,
        description: 'Holds 12 oz. </script><script>alert(1)</script> <!-- comment --> & more',
        productType: 'Merch',
        vendor: '<b>Bold</b> Vendor',
        tags: ['mugs', '<img src=x onerror=alert(1)>'],
        price: '12.00',
        compareAtPrice: null,
        currency: 'USD',
        available: true,
        imageUrls: [],
        updatedAt: null,
      },
    ],
    collections: [
      { handle: 'coffee-beans', title: 'Coffee Beans', url: `${STORE}/collections/coffee-beans`, description: 'Whole-bean coffee, roasted weekly.' },
      { handle: 'brewing-equipment', title: 'Brewing Equipment', url: `${STORE}/collections/brewing-equipment`, description: 'Drippers, grinders and kettles.' },
      { handle: 'all', title: 'All Products', url: `${STORE}/collections/all`, description: '' },
    ],
    pages: [
      page('/', 'home', 'Northwind Coffee Roasters', 'Small-batch coffee roasted in Portland.', '# Fresh coffee, roasted weekly\n\nShop [our beans](/collections/coffee-beans) or read [the journal](blogs/journal).\n\n![logo](//cdn.northwind-coffee.example/logo.png)'),
      page('/pages/about-us', 'page', 'About us', 'Who we are.', 'We started in a garage in 2014. [Contact us](mailto:hello@northwind-coffee.example) or see [shipping](../pages/shipping-returns "Shipping").\n\n[ref]: /pages/faq'),
      page('/pages/shipping-returns', 'page', 'Shipping & Returns', 'Free shipping over $40.', 'Orders ship within 2 business days. See [FAQ](/pages/faq#shipping).'),
      page('/pages/faq', 'page', 'FAQ', 'Frequently asked questions.', '## Do you ship abroad?\n\nYes, to Canada and the EU. [Details](<https://northwind-coffee.example/pages/shipping-returns>)'),
      page('/blogs/journal/how-to-brew-pour-over', 'article', 'How to brew pour-over', 'A five-step guide.', '1. Rinse the filter.\n2. Weigh 15 g of [coffee](/products/ethiopia-yirgacheffe).'),
    ],
    storeSitemapUrls: [
      { loc: `${STORE}/`, lastmod: '2026-03-10' },
      { loc: `${STORE}/products/ethiopia-yirgacheffe`, lastmod: '2026-03-01T12:00:00Z' },
      { loc: `${STORE}/collections/coffee-beans`, lastmod: '2026-02-01T00:00:00-08:00' },
      { loc: `${STORE}/search?q=beans&sort=price`, lastmod: 'not a date' },
      { loc: `${STORE}/pages/about-us` },
      { loc: 'relative/not-absolute' },
      { loc: `${STORE}/${'x'.repeat(2100)}` },
    ],
  };
}

function page(path: string, kind: 'home' | 'page' | 'article', title: string, description: string, markdown: string) {
  return {
    url: `${STORE}${path}`,
    kind,
    title,
    description,
    markdown,
    fingerprint: `sha256-${path}`,
    statusCode: 200,
    lastmod: path === '/' ? '2026-03-10T00:00:00Z' : undefined,
  };
}

export function narrative(): SiteNarrative {
  return {
    summary: 'Northwind Coffee Roasters is a Portland micro-roaster selling fresh whole-bean coffee and brewing gear online.',
    description:
      'Northwind roasts small batches every week and ships within two business days.\n\n# Not a heading: the roaster also runs cupping classes.',
    industry: 'specialty coffee',
    audience: 'home brewers',
    categories: ['Coffee Beans', 'Brewing Equipment'],
    keyFacts: ['Roasted weekly in Portland, Oregon', 'Free US shipping over $40', 'Founded in 2014'],
    faqs: [
      { question: 'Do you ship internationally?', answer: 'Yes. We ship to Canada and the EU; duties are paid by the customer.' },
      { question: 'Do you ship internationally!', answer: 'Same question, second phrasing: yes, to Canada and the EU.' },
      { question: 'Products?', answer: 'Coffee beans and brewing equipment.' },
      { question: 'How fresh is the coffee?', answer: 'Every order is roasted within 7 days of shipping.\n\nWe print the roast date on every bag.' },
      { question: 'Is the <img src=x onerror=alert(1)> decaf chemical-free?', answer: 'Yes: Swiss Water process, no solvents. </script><b>bold</b>' },
      { question: 'Can I return opened coffee?', answer: 'We replace any bag you are unhappy with within 30 days.' },
    ],
    productSummaries: {
      'ethiopia-yirgacheffe': 'A floral, tea-like light roast from Ethiopia.',
      'model-2025-burr-grinder': 'A home burr grinder for pour-over and espresso.',
    },
    engine: { name: 'offline' },
  };
}

export function metadata(publicOrigin = STORE, storeSitemapUrls = snapshot().storeSitemapUrls): DeployMetadata {
  return {
    orgSlug: 'northwind-coffee',
    businessName: 'Northwind Coffee Roasters',
    sourceUrl: STORE,
    publicOrigin,
    storeSitemapUrls,
    deployedAt: NOW,
  };
}
