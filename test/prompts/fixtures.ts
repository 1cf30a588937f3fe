/** A realistic specialty coffee store with 24 products, written by hand (Shopify-like: no currency per product). */
import type { CatalogProduct, ScrapedPage, StoreSnapshot } from '../../functions/core/site/types';

export const NAME = 'Harbor & Pine';
const ORIGIN = 'https://harborandpine.example';

function page(path: string, kind: ScrapedPage['kind'], title: string, markdown: string, description = ''): ScrapedPage {
  return { url: `${ORIGIN}${path}`, kind, title, description, markdown, fingerprint: `fp-${path}`, statusCode: 200 };
}

type P = Partial<CatalogProduct> & Pick<CatalogProduct, 'productId' | 'name' | 'productType' | 'price' | 'description' | 'tags'>;
function product(p: P): CatalogProduct {
  return {
    url: `${ORIGIN}/products/${p.productId}`,
    vendor: NAME,
    compareAtPrice: null,
    currency: null,
    available: true,
    imageUrls: [],
    updatedAt: '2024-05-01T10:00:00Z',
    ...p,
  };
}

const HOME = `# Harbor & Pine Coffee Roasters

Specialty coffee roasted in Seattle, one small batch at a time.

Harbor & Pine is an independent roastery that sells single origin coffee, espresso blends, cold brew and brewing equipment online.
We roast to order in small batches so every bag reaches you within a week of roasting.
Our coffees are roasted for home baristas, busy offices and anyone who loves a good cup.

Free shipping on US orders over $40.
`;

const ABOUT = `# About Harbor & Pine

Harbor&Pine started in 2014 in a garage near the Seattle waterfront.
We buy green coffee directly from farmers in Ethiopia, Kenya, Colombia and Guatemala and pay well above fair trade prices.
All of our coffee is roasted in Seattle on a 15-kilo roaster.
Our coffee bags are compostable and our shipping boxes are made from recycled cardboard.
`;

const FAQ = `# FAQ

## Do you offer a coffee subscription?

Yes. Choose any coffee and get it every one, two or four weeks. You can pause or cancel your subscription at any time.

## Where do you ship?

We ship to the United States and Canada. Orders ship within 2 business days.

## What is your return policy?

Unopened products can be returned within 30 days for a full refund.
`;

export const PRODUCTS: CatalogProduct[] = [
  product({ productId: 'ethiopia-guji', name: 'Ethiopia Guji', productType: 'Coffee', price: '19.00', tags: ['single origin', 'light roast', 'natural process'],
    description: 'A fruit-forward natural from Guji with notes of blueberry, jasmine and dark chocolate. Perfect for pour-over and filter brewing.' }),
  product({ productId: 'kenya-nyeri', name: 'Kenya Nyeri AA', productType: 'Coffee', price: '21.00', tags: ['single origin', 'light roast'],
    description: 'Bright and juicy with notes of blackcurrant, grapefruit and brown sugar. Great for pour-over.' }),
  product({ productId: 'colombia-supremo', name: 'Colombia Supremo', productType: 'Coffee', price: '17.00', tags: ['single origin', 'medium roast'],
    description: 'Balanced and sweet with notes of caramel, red apple and cocoa. Ideal for drip coffee makers and French press.' }),
  product({ productId: 'guatemala-antigua', name: 'Guatemala Antigua', productType: 'Coffee', price: '18.00', tags: ['single origin', 'medium roast'],
    description: 'Grown on volcanic soil near Antigua. Notes of milk chocolate, toffee and orange. Great for espresso and drip.' }),
  product({ productId: 'sumatra-mandheling', name: 'Sumatra Mandheling', productType: 'Coffee', price: '18.50', tags: ['single origin', 'dark roast'],
    description: 'Earthy and full-bodied with notes of cedar, dark chocolate and spice. Perfect for French press.' }),
  product({ productId: 'house-blend', name: 'Harbor & Pine House Blend', productType: 'Coffee', price: '15.00', tags: ['blend', 'medium roast'],
    description: 'Our everyday blend with notes of chocolate, almond and brown sugar. Made for drip coffee and French press.' }),
  product({ productId: 'harborpine-espresso', name: 'HarborPine Espresso', productType: 'Coffee', price: '16.50', tags: ['espresso', 'blend'],
    description: 'A syrupy espresso with notes of cherry, cocoa and hazelnut. Built for milk drinks and straight shots alike.' }),
  product({ productId: 'swiss-water-decaf', name: 'Swiss Water Decaf', productType: 'Coffee', price: '17.50', tags: ['decaf', 'medium roast'],
    description: 'Chemical-free Swiss Water Process decaf with notes of milk chocolate and walnut. Ideal for evening cups.' }),
  product({ productId: 'cold-brew-pack', name: 'Cold Brew Pouches', productType: 'Cold Brew', price: '14.00', tags: ['cold brew', 'coarse ground'],
    description: 'Pre-ground coffee in filter pouches: steep overnight for smooth cold brew concentrate. Makes 8 cups. Perfect for summer and iced coffee.' }),
  product({ productId: 'nitro-cans', name: 'Nitro Cold Brew Cans', productType: 'Cold Brew', price: '32.00', tags: ['ready to drink', 'cold brew'],
    description: 'Twelve 8 oz cans of nitrogen-infused cold brew with notes of chocolate and vanilla. Great for road trips and the office fridge.' }),
  product({ productId: 'single-serve-pods', name: 'Compostable Coffee Pods', productType: 'Coffee Pods', price: '12.00', tags: ['compostable', 'medium roast'],
    description: 'Ten compostable pods that fit Nespresso Original machines. Notes of caramel and cocoa.' }),
  product({ productId: 'green-coffee-sampler', name: 'Origin Sampler', productType: 'Coffee', price: '38.00', tags: ['sampler', 'single origin'],
    description: 'Four 4 oz bags of our current single origins. Ideal for gifting and for finding a favourite.' }),
  product({ productId: 'hario-v60', name: 'Hario V60 Dripper', productType: 'Brewing Equipment', price: '28.00', vendor: 'Hario', tags: ['pour over', 'ceramic'],
    description: 'The classic ceramic cone dripper with spiral ribs. Perfect for pour-over beginners and experts.' }),
  product({ productId: 'chemex-6-cup', name: 'Chemex Six Cup', productType: 'Brewing Equipment', price: '49.00', vendor: 'Chemex', tags: ['pour over', 'glass'],
    description: 'Hand-blown borosilicate glass brewer with a wood collar. Makes clean, sediment-free coffee for groups.' }),
  product({ productId: 'aeropress', name: 'AeroPress Original', productType: 'Brewing Equipment', price: '39.95', vendor: 'AeroPress', tags: ['travel', 'immersion'],
    description: 'A light, unbreakable brewer that makes espresso-style coffee in a minute. Great for travel and camping.' }),
  product({ productId: 'french-press', name: 'Steel French Press', productType: 'Brewing Equipment', price: '45.00', vendor: 'Frieling', tags: ['french press', 'stainless steel'],
    description: 'Double-walled stainless steel press that keeps coffee hot for an hour. Ideal for families and slow weekend mornings.' }),
  product({ productId: 'burr-grinder', name: 'Encore Burr Grinder', productType: 'Grinders', price: '149.00', vendor: 'Baratza', tags: ['burr grinder', 'electric'],
    description: 'An electric conical burr grinder with 40 settings, from espresso to French press. Perfect for home baristas upgrading from blade grinders.' }),
  product({ productId: 'hand-grinder', name: 'Manual Hand Grinder', productType: 'Grinders', price: '89.00', vendor: 'Timemore', tags: ['hand grinder', 'travel'],
    description: 'A steel burr hand grinder that fits inside an AeroPress. Great for travel and camping.' }),
  product({ productId: 'gooseneck-kettle', name: 'Stagg Gooseneck Kettle', productType: 'Kettles', price: '99.00', vendor: 'Fellow', tags: ['pour over', 'electric'],
    description: 'A variable-temperature electric kettle with a precision pour spout. Made for pour-over brewing.' }),
  product({ productId: 'scale', name: 'Brewing Scale with Timer', productType: 'Scales', price: '55.00', vendor: 'Acaia', tags: ['pour over', 'espresso'],
    description: 'Weighs to 0.1 g with a built-in timer. Ideal for dialing in espresso and pour-over recipes.' }),
  product({ productId: 'paper-filters', name: 'V60 Paper Filters', productType: 'Filters', price: '7.00', vendor: 'Hario', tags: ['pour over', 'paper'],
    description: 'Pack of 100 white paper filters for size 02 cone drippers. Made for clean, bright cups.' }),
  product({ productId: 'logo-mug', name: 'Harbor & Pine Logo Mug', productType: 'Mugs', price: '18.00', tags: ['ceramic', 'merch'],
    description: 'A 12 oz stoneware mug with a matte glaze, made in Portland. Dishwasher safe. Perfect for your morning pour-over.' }),
  product({ productId: 'travel-tumbler', name: 'Insulated Travel Tumbler', productType: 'Drinkware', price: '30.00', vendor: 'Miir', tags: ['travel', 'insulated'],
    description: 'A 12 oz vacuum-insulated tumbler with a leak-proof lid. Keeps coffee hot for 6 hours. Great for commuters and road trips.' }),
  product({ productId: 'gift-box', name: 'Pour-Over Gift Box', productType: 'Gift Sets', price: '75.00', tags: ['gift', 'pour over'],
    description: 'A Hario V60, 100 filters and two bags of single origin coffee in one box. Ideal for coffee lovers new to pour-over.' }),
];

export function harborStore(overrides: Partial<StoreSnapshot> = {}): StoreSnapshot {
  return {
    business: { name: NAME, orgSlug: 'harbor-and-pine', url: ORIGIN, domain: 'harborandpine.example' },
    pages: [
      page('/', 'home', 'Harbor & Pine | Specialty Coffee Roasters', HOME, 'Specialty coffee roasted in small batches in Seattle.'),
      page('/pages/about', 'page', 'About', ABOUT),
      page('/pages/faq', 'page', 'FAQ', FAQ),
    ],
    products: PRODUCTS.map((p) => ({ ...p, tags: [...p.tags] })),
    collections: [
      { handle: 'all', title: 'All', url: `${ORIGIN}/collections/all`, description: '' },
      { handle: 'coffee', title: 'Coffee', url: `${ORIGIN}/collections/coffee`, description: 'Single origins and blends.' },
      { handle: 'espresso', title: 'Espresso', url: `${ORIGIN}/collections/espresso`, description: '' },
      { handle: 'cold-brew', title: 'Cold Brew', url: `${ORIGIN}/collections/cold-brew`, description: '' },
      { handle: 'brewing', title: 'Brewing Equipment', url: `${ORIGIN}/collections/brewing`, description: '' },
      { handle: 'grinders', title: 'Grinders', url: `${ORIGIN}/collections/grinders`, description: '' },
      { handle: 'gifts', title: 'Gifts', url: `${ORIGIN}/collections/gifts`, description: '' },
      { handle: 'sale', title: 'Sale', url: `${ORIGIN}/collections/sale`, description: '' },
    ],
    storeSitemapUrls: [{ loc: `${ORIGIN}/` }],
    ...overrides,
  };
}

/** The first `n` products: a smaller store with the same pages. */
export function smallHarborStore(n: number): StoreSnapshot {
  return harborStore({ products: PRODUCTS.slice(0, n).map((p) => ({ ...p, tags: [...p.tags] })) });
}
