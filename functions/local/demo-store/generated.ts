/**
 * Deterministic extra products for the `size`/`products` knobs (benchmarks want 5,000+ pages).
 * Product n is a pure function of n: kind, adjective and origin are picked by mixed-radix digits,
 * so (kind, adjective, origin) never repeats within a cycle and handles stay unique; past one
 * cycle a `-lot-N` suffix keeps them unique. No randomness, no lookup tables per product.
 */
import type { BaseProduct, BaseVariant } from './catalogue-base';

interface Origin {
  region: string;
  country: string;
  altitude: string;
  process: string;
  varieties: string;
  notes: string;
}

const ORIGINS: Origin[] = [
  { region: 'Huila', country: 'Colombia', altitude: '1,700–1,900 m', process: 'washed', varieties: 'Caturra and Castillo', notes: 'red apple, panela and cacao nib' },
  { region: 'Nariño', country: 'Colombia', altitude: '1,900–2,200 m', process: 'washed', varieties: 'Caturra and Colombia', notes: 'tangerine, cane sugar and black tea' },
  { region: 'Sidama', country: 'Ethiopia', altitude: '1,900–2,200 m', process: 'natural', varieties: 'heirloom varieties', notes: 'blueberry, dark chocolate and rose' },
  { region: 'Guji', country: 'Ethiopia', altitude: '2,000–2,250 m', process: 'washed', varieties: 'heirloom varieties', notes: 'peach, jasmine and lime' },
  { region: 'Nyeri', country: 'Kenya', altitude: '1,750–1,900 m', process: 'washed', varieties: 'SL28 and SL34', notes: 'blackcurrant, grapefruit and molasses' },
  { region: 'Kirinyaga', country: 'Kenya', altitude: '1,600–1,800 m', process: 'washed', varieties: 'SL28, SL34 and Ruiru 11', notes: 'cherry, hibiscus and brown sugar' },
  { region: 'Huehuetenango', country: 'Guatemala', altitude: '1,650–1,900 m', process: 'washed', varieties: 'Bourbon and Caturra', notes: 'plum, brown sugar and cocoa' },
  { region: 'Antigua', country: 'Guatemala', altitude: '1,500–1,700 m', process: 'washed', varieties: 'Bourbon', notes: 'milk chocolate, orange and almond' },
  { region: 'Cerrado Mineiro', country: 'Brazil', altitude: '1,000–1,200 m', process: 'natural', varieties: 'Yellow Catuaí', notes: 'hazelnut, cocoa and brown sugar' },
  { region: 'Mantiqueira', country: 'Brazil', altitude: '1,100–1,400 m', process: 'pulped natural', varieties: 'Yellow Bourbon', notes: 'caramel, walnut and dried fig' },
  { region: 'Cajamarca', country: 'Peru', altitude: '1,700–2,000 m', process: 'washed', varieties: 'Typica and Caturra', notes: 'honey, red grape and cocoa' },
  { region: 'Cusco', country: 'Peru', altitude: '1,600–1,900 m', process: 'washed', varieties: 'Bourbon and Typica', notes: 'toffee, lemon and vanilla' },
  { region: 'Tarrazú', country: 'Costa Rica', altitude: '1,500–1,900 m', process: 'honey', varieties: 'Caturra and Catuaí', notes: 'apricot, honey and cinnamon' },
  { region: 'West Valley', country: 'Costa Rica', altitude: '1,300–1,600 m', process: 'honey', varieties: 'Villa Sarchi', notes: 'mango, brown butter and cocoa' },
  { region: 'Santa Bárbara', country: 'Honduras', altitude: '1,500–1,800 m', process: 'washed', varieties: 'Pacas and Parainema', notes: 'red apple, caramel and nutmeg' },
  { region: 'Marcala', country: 'Honduras', altitude: '1,300–1,700 m', process: 'washed', varieties: 'Catuaí and Lempira', notes: 'milk chocolate, pear and walnut' },
  { region: 'Nyamasheke', country: 'Rwanda', altitude: '1,600–1,900 m', process: 'washed', varieties: 'Red Bourbon', notes: 'cranberry, black tea and honey' },
  { region: 'Kayanza', country: 'Burundi', altitude: '1,700–2,000 m', process: 'washed', varieties: 'Red Bourbon', notes: 'raspberry, lemongrass and cane sugar' },
  { region: 'Aceh Gayo', country: 'Indonesia', altitude: '1,400–1,600 m', process: 'wet-hulled', varieties: 'Ateng and Timtim', notes: 'cedar, dark cocoa and clove' },
  { region: 'Toraja', country: 'Indonesia', altitude: '1,400–1,800 m', process: 'wet-hulled', varieties: 'S795 and Typica', notes: 'pipe tobacco, dark cherry and spice' },
  { region: 'Chiapas', country: 'Mexico', altitude: '1,200–1,600 m', process: 'washed', varieties: 'Bourbon and Typica', notes: 'almond, cocoa and orange peel' },
  { region: 'Oaxaca', country: 'Mexico', altitude: '1,400–1,800 m', process: 'washed', varieties: 'Typica and Pluma Hidalgo', notes: 'brown sugar, grapefruit and pecan' },
  { region: 'Jinotega', country: 'Nicaragua', altitude: '1,100–1,500 m', process: 'washed', varieties: 'Caturra and Catuaí', notes: 'caramel, red apple and cocoa' },
  { region: 'Mbeya', country: 'Tanzania', altitude: '1,600–1,900 m', process: 'washed', varieties: 'Bourbon and Kent', notes: 'black currant, lime and toffee' },
];

const ADJECTIVES = [
  'Bright', 'Honeyed', 'Velvet', 'Copper', 'Harvest', 'Tidal', 'Lantern', 'Saltwind', 'Northern', 'Amber', 'Granite', 'Morning',
  'Ember', 'Cedar', 'Foghorn', 'Lighthouse', 'Driftwood', 'Juniper', 'Seawall', 'Bluebird', 'Hearth', 'Sunrise', 'Old Port', 'Birch',
];

interface Kind {
  name: string;
  productType: string;
  tag: string;
  optionName: BaseProduct['optionName'];
  variants: Array<Omit<BaseVariant, 'sku'> & { code: string }>;
  describe: (o: Origin) => string;
}

const KINDS: Kind[] = [
  { name: 'Filter Roast', productType: 'Coffee', tag: 'filter', optionName: 'Size',
    variants: [{ title: '12 oz', price: '19.00', grams: 340, code: '12' }, { title: '2 lb', price: '52.00', grams: 907, code: '32' }],
    describe: () => 'Roasted light for pour-over and drip; brew at 1:16 with water at 94 °C.' },
  { name: 'Espresso Roast', productType: 'Coffee', tag: 'espresso', optionName: 'Size',
    variants: [{ title: '12 oz', price: '19.00', grams: 340, code: '12' }, { title: '2 lb', price: '52.00', grams: 907, code: '32' }, { title: '5 lb', price: '115.00', grams: 2268, code: '80' }],
    describe: () => 'Roasted medium for espresso: 18 g in, 38 g out in about 28 seconds.' },
  { name: 'Microlot', productType: 'Coffee', tag: 'microlot', optionName: 'Size',
    variants: [{ title: '8 oz', price: '24.00', grams: 227, code: '08' }],
    describe: () => 'A single day\'s picking, under 300 kg in total; sold in 8 oz bags while it lasts.' },
  { name: 'Drip Bags', productType: 'Coffee', tag: 'drip-bags', optionName: 'Size',
    variants: [{ title: '10-pack', price: '16.00', grams: 150, code: '10' }, { title: '30-pack', price: '42.00', grams: 450, code: '30' }],
    describe: () => 'Each compostable drip bag holds 12 g of fresh-ground coffee for one 200 ml cup; no gear needed.' },
  { name: 'Cold Brew Packs', productType: 'Coffee', tag: 'cold-brew', optionName: 'Title',
    variants: [{ title: 'Default Title', price: '16.00', grams: 400, code: '4P' }],
    describe: () => 'Four filter packs of 3 oz coarse-ground coffee; steep one in 1 quart of cold water for 14 to 18 hours.' },
  { name: 'Green Coffee Sample', productType: 'Green Coffee', tag: 'green-coffee', optionName: 'Size',
    variants: [{ title: '1 lb', price: '12.00', grams: 454, code: '16' }, { title: '5 lb', price: '52.00', grams: 2268, code: '80' }],
    describe: () => 'Unroasted green coffee for home roasters, graded and vacuum-packed; stores for 9 to 12 months.' },
  { name: 'Decaf', productType: 'Coffee', tag: 'decaf', optionName: 'Size',
    variants: [{ title: '12 oz', price: '19.00', grams: 340, code: '12' }],
    describe: () => 'Decaffeinated with the sugarcane (ethyl acetate) process, removing at least 97% of the caffeine.' },
  { name: 'Tasting Set', productType: 'Coffee', tag: 'sampler', optionName: 'Title',
    variants: [{ title: 'Default Title', price: '26.00', grams: 460, code: 'TS' }],
    describe: () => 'Three 4 oz bags roasted light, medium and dark from the same lot, to taste what roasting changes.' },
  { name: 'Wholesale Bag', productType: 'Coffee', tag: 'wholesale', optionName: 'Size',
    variants: [{ title: '5 lb', price: '95.00', grams: 2268, code: '80' }],
    describe: () => 'A 5 lb valve bag for cafés and offices; roasted to order and shipped within one business day.' },
  { name: 'Cascara Tea', productType: 'Tea', tag: 'cascara', optionName: 'Size',
    variants: [{ title: '8 oz', price: '14.00', grams: 227, code: '08' }],
    describe: () => 'Dried coffee-cherry husks from the same farms, brewed like tea: 15 g per 500 ml at 95 °C for 5 minutes.' },
  { name: 'Reserve', productType: 'Coffee', tag: 'reserve', optionName: 'Size',
    variants: [{ title: '8 oz', price: '28.00', grams: 227, code: '08' }],
    describe: () => 'Our top-scoring lot from this origin this harvest, cupped at 88 points or above.' },
  { name: 'Half-Caf Blend', productType: 'Coffee', tag: 'half-caf', optionName: 'Size',
    variants: [{ title: '12 oz', price: '18.00', grams: 340, code: '12' }],
    describe: () => 'Half regular, half sugarcane decaf, blended before roasting for an even cup with half the caffeine.' },
];

/** Combinations before the `-lot-N` suffix is needed. */
export const GENERATED_CYCLE = KINDS.length * ADJECTIVES.length * ORIGINS.length;

function slugify(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

/** The n-th generated product (0-based), shaped like a base product so the catalogue treats both alike. */
export function generatedProduct(n: number): BaseProduct {
  const kind = KINDS[n % KINDS.length];
  const adjective = ADJECTIVES[Math.floor(n / KINDS.length) % ADJECTIVES.length];
  const origin = ORIGINS[Math.floor(n / (KINDS.length * ADJECTIVES.length)) % ORIGINS.length];
  const cycle = Math.floor(n / GENERATED_CYCLE);
  const lot = cycle > 0 ? ` Lot ${cycle + 1}` : '';
  const title = `${adjective} ${origin.region} ${kind.name}${lot}`;
  const handle = slugify(title);
  const code = `HP-G${String(n).padStart(5, '0')}`;
  return {
    handle,
    title,
    productType: kind.productType,
    tags: [slugify(origin.country), slugify(origin.process), kind.tag, 'roasters-archive'],
    optionName: kind.optionName,
    // Every 13th product is sold out, so availability is not uniformly true.
    variants: kind.variants.map((v, i) => ({ title: v.title, price: v.price, grams: v.grams, sku: `${code}-${v.code}`, available: (n + i) % 13 !== 5 })),
    images: 1 + (n % 2),
    collections: ['roasters-archive', ...(kind.tag === 'wholesale' || kind.tag === 'espresso' ? ['wholesale-cafe'] : [])],
    body:
      `<p>${kind.name === 'Cascara Tea' ? 'Cherry husks' : origin.varieties} from ${origin.region}, ${origin.country}, grown at ${origin.altitude} and ${origin.process === 'natural' ? 'dried in the whole cherry' : `processed ${origin.process}`}. ` +
      `Tasting notes: ${origin.notes}.</p><p>${kind.describe(origin)}</p>`,
  };
}

/** The extra collections that hold generated products (only present when there are any). */
export const GENERATED_COLLECTIONS = [
  { handle: 'roasters-archive', title: "Roaster's Archive", description: 'Every lot, roast and format we have offered since 2016, from filter roasts to green-coffee samples.' },
  { handle: 'wholesale-cafe', title: 'Wholesale & Café', description: 'Espresso roasts and 5 lb bags for cafés, restaurants and offices, roasted to order.' },
];
