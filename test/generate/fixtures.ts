/** A small, realistic coffee and tea store snapshot, written by hand. */
import type { CatalogProduct, ScrapedPage, StoreSnapshot } from '../../functions/core/site/types';

const ORIGIN = 'https://emberandleaf.example';

function page(path: string, kind: ScrapedPage['kind'], title: string, markdown: string, description = ''): ScrapedPage {
  return { url: `${ORIGIN}${path}`, kind, title, description, markdown, fingerprint: `fp-${path}`, statusCode: 200 };
}

function product(p: Partial<CatalogProduct> & Pick<CatalogProduct, 'productId' | 'name' | 'productType' | 'price' | 'description'>): CatalogProduct {
  return {
    url: `${ORIGIN}/products/${p.productId}`,
    vendor: 'Ember & Leaf',
    tags: [],
    compareAtPrice: null,
    currency: 'USD',
    available: true,
    imageUrls: [],
    updatedAt: '2024-05-01T10:00:00Z',
    ...p,
  };
}

export const HOME_MD = `# Ember & Leaf

Small-batch coffee and loose leaf tea, roasted and blended in Portland.

[Shop coffee](/collections/coffee) [Shop tea](/collections/tea)

Ember & Leaf is a small roastery and tea house that sells freshly roasted specialty coffee, loose leaf tea and brewing gear online.
We roast every batch in Portland, Oregon and ship it within 48 hours of roasting.
Our coffees are made for home brewers and curious coffee drinkers who want to taste where their beans come from.

Free shipping on all US orders over $45.

Subscribe to our newsletter for 10% off your first order.
`;

export const ABOUT_MD = `# Our story

Ember & Leaf started in 2016 as a weekend stall at the Portland farmers market.
Today we are a team of six roasters and tea blenders working from a small warehouse in Southeast Portland.

We buy green coffee directly from farms in Ethiopia, Colombia and Guatemala.
All of our teas are certified organic.
Our coffee bags are fully compostable.
`;

export const FAQ_MD = `# Frequently asked questions

## How fresh is your coffee?

Every order is roasted to order and shipped within 48 hours of roasting. The roast date is printed on every bag.

## Do you grind the beans?

Yes. Choose whole bean, espresso, filter or French press grind when you add a coffee to your cart.

**Can I pause my subscription?**
Yes, you can pause or cancel your subscription at any time from your account page.

**How should I store loose leaf tea?**

Keep tea in an airtight container away from light, heat and strong smells.

For anything else, write to hello@emberandleaf.example.
`;

export const SHIPPING_MD = `# Shipping

We ship to the United States and Canada.
US orders ship with USPS Priority Mail and usually arrive in 2-4 business days.
Orders to Canada ship with tracked postage and take 5-10 business days.
Free shipping on all US orders over $45.
`;

export const PRODUCTS: CatalogProduct[] = [
  product({ productId: 'ethiopia-yirgacheffe', name: 'Ethiopia Yirgacheffe', productType: 'Coffee', price: '19.50', tags: ['single origin', 'light roast'],
    description: 'A light roast with notes of jasmine, bergamot and lemon. Grown by smallholder farmers in the Gedeo Zone of Ethiopia. 12 oz bag.' }),
  product({ productId: 'colombia-huila', name: 'Colombia Huila', productType: 'Coffee', price: '17.00', tags: ['single origin', 'medium roast'],
    description: 'A medium roast with notes of caramel, red apple and cocoa. Sourced from the Los Naranjos cooperative in Huila, Colombia.' }),
  product({ productId: 'ember-espresso', name: 'Ember Espresso Blend', productType: 'Coffee', price: '16.00', tags: ['blend', 'espresso'],
    description: 'Our house espresso: chocolate, hazelnut and a long sweet finish. Built for milk drinks and straight shots alike.' }),
  product({ productId: 'decaf-guatemala', name: 'Decaf Guatemala', productType: 'Coffee', price: '18.00', tags: ['decaf'], available: false,
    description: 'Swiss Water Process decaf with notes of milk chocolate and almond.' }),
  product({ productId: 'sencha-green', name: 'Organic Sencha', productType: 'Tea', price: '14.00', tags: ['green tea', 'organic'],
    description: 'A bright, grassy Japanese green tea. 50 g tin.' }),
  product({ productId: 'earl-grey-cream', name: 'Earl Grey Cream', productType: 'Tea', price: '12.50', tags: ['black tea'],
    description: 'Assam black tea with bergamot oil and vanilla. 50 g tin.' }),
  product({ productId: 'mountain-oolong', name: 'Mountain Oolong', productType: 'Tea', price: '22.00', tags: ['oolong'],
    description: 'A lightly oxidised high-mountain oolong from Nantou, Taiwan. Rich and floral.' }),
  product({ productId: 'ceramic-dripper', name: 'Ceramic Pour-Over Dripper', productType: 'Brewing Gear', price: '34.00', vendor: 'Kōno Works', tags: ['brewing'],
    description: 'A hand-glazed ceramic cone dripper that fits most mugs. Uses size 02 filters.' }),
];

export function coffeeStore(overrides: Partial<StoreSnapshot> = {}): StoreSnapshot {
  return {
    business: { name: 'Ember & Leaf', orgSlug: 'ember-and-leaf', url: ORIGIN, domain: 'emberandleaf.example' },
    pages: [
      page('/', 'home', 'Ember & Leaf | Coffee and Tea', HOME_MD, 'Small-batch specialty coffee and loose leaf tea, roasted and blended in Portland, Oregon.'),
      page('/pages/about', 'page', 'About us', ABOUT_MD),
      page('/pages/faq', 'page', 'FAQ', FAQ_MD),
      page('/policies/shipping-policy', 'page', 'Shipping policy', SHIPPING_MD),
    ],
    products: PRODUCTS.map((p) => ({ ...p, tags: [...p.tags] })),
    collections: [
      { handle: 'all', title: 'All', url: `${ORIGIN}/collections/all`, description: '' },
      { handle: 'frontpage', title: 'Home page', url: `${ORIGIN}/collections/frontpage`, description: '' },
      { handle: 'coffee', title: 'Coffee', url: `${ORIGIN}/collections/coffee`, description: 'Single origins and blends.' },
      { handle: 'teas', title: 'Teas', url: `${ORIGIN}/collections/teas`, description: '' },
      { handle: 'brewing', title: 'Brewing Equipment', url: `${ORIGIN}/collections/brewing`, description: '' },
    ],
    storeSitemapUrls: [{ loc: `${ORIGIN}/` }],
    ...overrides,
  };
}

/** All the text a narrative may quote from, whitespace-normalized. */
export function inputText(snapshot: StoreSnapshot): string {
  return [...snapshot.pages.flatMap((p) => [p.title, p.description, p.markdown]), ...snapshot.products.map((p) => p.description)]
    .join('\n')
    .replace(/\s+/g, ' ');
}
