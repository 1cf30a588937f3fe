/**
 * A real-shaped outdoor store (Shopify `/products.json` items, converted like discovery does):
 * 75 products, most in sibling groups that real stores are full of — numbered generations
 * ("Meadow Headlamp" … "Meadow Headlamp 5", "Tidal Camp Mug" … "4"), colourways and cuts
 * sold as separate products ("Trail Tee - Red", "Summit Down Jacket - Women's"), capacities
 * ("Canyon Daypack 18L" … "30L"), with option values, prices, shared descriptions, the brand
 * as vendor and in a few titles ("Ridgeline Beanie").
 */
import { toCatalogProduct, type StorefrontProduct } from '../../functions/core/products/catalog';
import type { CatalogProduct, ScrapedPage, StoreSnapshot } from '../../functions/core/site/types';

export const OUTDOOR_NAME = 'Ridgeline Outfitters';
const ORIGIN = 'https://ridgeline.example';

interface Spec {
  title: string;
  type: string;
  price: number;
  vendor?: string;
  pitch: string;
  option?: { name: string; values: string[] };
  tags?: string[];
}

const HEADLAMP = 'An LED headlamp with a red night mode and a tilting beam. Ideal for night hiking.';
const MUG = 'A double-wall camp mug with a sip lid. Keeps coffee hot at camp.';
const TEE = 'A quick-drying, breathable trail tee in a recycled polyester blend. Made for hiking and trail running.';
const JACKET = 'A lightweight 800-fill down jacket that packs into its own pocket. Great for cold belays and winter camping.';
const SHELL = 'A waterproof, breathable 3-layer rain shell with pit zips and a helmet-compatible hood. Built for backpacking in the rain.';
const BAG = 'A mummy sleeping bag with water-resistant down and a draft collar. Made for backpacking and alpine camping.';
const PACK = 'A lightweight daypack with a padded hip belt, hydration sleeve and rain cover. Ideal for day hikes.';
const SOCK = 'Cushioned merino wool hiking socks that stay dry and do not smell. Made for long days on the trail.';
const BOTTLE = 'An insulated stainless steel water bottle that keeps drinks cold for 24 hours. Leak-proof and dishwasher safe.';
const TENT = 'A freestanding backpacking tent with two doors and an aluminium frame. Built for three-season backpacking.';
const PAD = 'An insulated inflatable sleeping pad that packs to the size of a water bottle. Perfect for backpacking and cold nights.';
const POLES = 'Adjustable trekking poles with cork grips and flick locks. Great for steep descents and river crossings.';
const DRYBAG = 'A roll-top waterproof dry bag in ripstop nylon. Keeps gear dry for kayaking and rainy hikes.';
const CHAIR = 'A compact folding camp chair that packs small. Ideal for car camping and festivals.';
const BEANIE = 'A soft merino wool beanie for cold mornings. Machine washable.';
const FUEL = 'Isobutane-propane fuel canister for camp stoves. Fits every stove with a threaded valve.';

const SPECS: Spec[] = [
  { title: 'Meadow Headlamp', type: 'Headlamps', price: 29, pitch: HEADLAMP, option: { name: 'Color', values: ['Black', 'Orange'] } },
  { title: 'Meadow Headlamp 2', type: 'Headlamps', price: 39, pitch: HEADLAMP, option: { name: 'Color', values: ['Black', 'Blue'] } },
  { title: 'Meadow Headlamp 3', type: 'Headlamps', price: 49, pitch: HEADLAMP, option: { name: 'Color', values: ['Black', 'Green'] } },
  { title: 'Meadow Headlamp 4', type: 'Headlamps', price: 59, pitch: HEADLAMP, option: { name: 'Color', values: ['Black', 'Red'] } },
  { title: 'Meadow Headlamp 5', type: 'Headlamps', price: 69, pitch: HEADLAMP, option: { name: 'Color', values: ['Black', 'Grey'] } },
  { title: 'Tidal Camp Mug', type: 'Camp Mugs', price: 18, pitch: MUG, option: { name: 'Size', values: ['12 oz'] } },
  { title: 'Tidal Camp Mug 2', type: 'Camp Mugs', price: 22, pitch: MUG, option: { name: 'Size', values: ['16 oz'] } },
  { title: 'Tidal Camp Mug 3', type: 'Camp Mugs', price: 26, pitch: MUG, option: { name: 'Size', values: ['12 oz', '16 oz'] } },
  { title: 'Tidal Camp Mug 4', type: 'Camp Mugs', price: 34, pitch: MUG, option: { name: 'Size', values: ['10 oz'] } },
  { title: 'Trail Tee - Red', type: 'T-Shirts', price: 35, pitch: TEE, option: { name: 'Size', values: ['S', 'M', 'L', 'XL'] } },
  { title: 'Trail Tee - Blue', type: 'T-Shirts', price: 35, pitch: TEE, option: { name: 'Size', values: ['S', 'M', 'L', 'XL'] } },
  { title: 'Trail Tee - Green', type: 'T-Shirts', price: 35, pitch: TEE, option: { name: 'Size', values: ['S', 'M', 'L', 'XL'] } },
  { title: 'Trail Tee - Black', type: 'T-Shirts', price: 35, pitch: TEE, option: { name: 'Size', values: ['S', 'M', 'L', 'XL'] } },
  { title: 'Trail Tee - Sand', type: 'T-Shirts', price: 35, pitch: TEE, option: { name: 'Size', values: ['S', 'M', 'L', 'XL'] } },
  { title: "Summit Down Jacket - Men's", type: 'Jackets', price: 249, pitch: JACKET, option: { name: 'Size', values: ['S', 'M', 'L', 'XL'] } },
  { title: "Summit Down Jacket - Women's", type: 'Jackets', price: 249, pitch: JACKET, option: { name: 'Size', values: ['XS', 'S', 'M', 'L'] } },
  { title: 'Summit Down Hoody', type: 'Jackets', price: 279, pitch: `${JACKET} With an insulated hood.`, option: { name: 'Size', values: ['S', 'M', 'L'] } },
  { title: "Ridge Rain Shell - Men's", type: 'Jackets', price: 189, pitch: SHELL, option: { name: 'Color', values: ['Navy', 'Orange'] } },
  { title: "Ridge Rain Shell - Women's", type: 'Jackets', price: 189, pitch: SHELL, option: { name: 'Color', values: ['Teal', 'Plum'] } },
  { title: 'Alpine Sleeping Bag 35°F', type: 'Sleeping Bags', price: 219, pitch: BAG, option: { name: 'Length', values: ['Regular', 'Long'] } },
  { title: 'Alpine Sleeping Bag 20°F', type: 'Sleeping Bags', price: 289, pitch: BAG, option: { name: 'Length', values: ['Regular', 'Long'] } },
  { title: 'Alpine Sleeping Bag 0°F', type: 'Sleeping Bags', price: 389, pitch: BAG, option: { name: 'Length', values: ['Regular', 'Long'] } },
  { title: 'Canyon Daypack 18L', type: 'Backpacks', price: 79, pitch: PACK, option: { name: 'Color', values: ['Black', 'Olive'] } },
  { title: 'Canyon Daypack 24L', type: 'Backpacks', price: 99, pitch: PACK, option: { name: 'Color', values: ['Black', 'Olive'] } },
  { title: 'Canyon Daypack 30L', type: 'Backpacks', price: 119, pitch: PACK, option: { name: 'Color', values: ['Black', 'Rust'] } },
  { title: 'Hiker Merino Socks - Crew', type: 'Socks', price: 24, pitch: SOCK, option: { name: 'Size', values: ['S', 'M', 'L'] } },
  { title: 'Hiker Merino Socks - Quarter', type: 'Socks', price: 22, pitch: SOCK, option: { name: 'Size', values: ['S', 'M', 'L'] } },
  { title: 'Hiker Merino Socks - Lightweight', type: 'Socks', price: 20, pitch: SOCK, option: { name: 'Size', values: ['S', 'M', 'L'] } },
  { title: 'Hiker Merino Socks - Midweight', type: 'Socks', price: 26, pitch: SOCK, option: { name: 'Size', values: ['S', 'M', 'L'] } },
  { title: 'Riverstone Bottle 20 oz', type: 'Water Bottles', price: 28, pitch: BOTTLE, option: { name: 'Color', values: ['Slate', 'Moss'] } },
  { title: 'Riverstone Bottle 32 oz', type: 'Water Bottles', price: 34, pitch: BOTTLE, option: { name: 'Color', values: ['Slate', 'Moss'] } },
  { title: 'Riverstone Bottle 40 oz', type: 'Water Bottles', price: 39, pitch: BOTTLE, option: { name: 'Color', values: ['Slate', 'Moss'] } },
  { title: 'Basin 1P Tent', type: 'Tents', price: 299, pitch: TENT, tags: ['solo'] },
  { title: 'Basin 2P Tent', type: 'Tents', price: 379, pitch: TENT },
  { title: 'Basin 3P Tent', type: 'Tents', price: 449, pitch: TENT },
  { title: 'Drift Sleeping Pad', type: 'Sleeping Pads', price: 129, pitch: PAD, option: { name: 'Size', values: ['Regular'] } },
  { title: 'Drift Sleeping Pad Wide', type: 'Sleeping Pads', price: 149, pitch: PAD, option: { name: 'Size', values: ['Wide'] } },
  { title: 'Drift Sleeping Pad Long', type: 'Sleeping Pads', price: 159, pitch: PAD, option: { name: 'Size', values: ['Long Wide'] } },
  { title: 'Switchback Trekking Poles', type: 'Trekking Poles', price: 89, pitch: `${POLES} Aluminium shafts.` },
  { title: 'Switchback Trekking Poles Carbon', type: 'Trekking Poles', price: 149, pitch: `${POLES} Carbon fibre shafts.` },
  { title: 'Switchback Trekking Poles 2', type: 'Trekking Poles', price: 109, pitch: POLES },
  { title: 'Harbor Dry Bag 5L', type: 'Dry Bags', price: 19, pitch: DRYBAG },
  { title: 'Harbor Dry Bag 10L', type: 'Dry Bags', price: 24, pitch: DRYBAG },
  { title: 'Harbor Dry Bag 20L', type: 'Dry Bags', price: 29, pitch: DRYBAG },
  { title: 'Harbor Dry Bag 35L', type: 'Dry Bags', price: 36, pitch: DRYBAG },
  { title: 'Lakeside Camp Chair', type: 'Camp Furniture', price: 59, pitch: CHAIR, option: { name: 'Color', values: ['Green', 'Grey'] } },
  { title: 'Lakeside Camp Chair 2', type: 'Camp Furniture', price: 79, pitch: `${CHAIR} With a cup holder.`, option: { name: 'Color', values: ['Green', 'Grey'] } },
  { title: 'Lakeside Camp Table', type: 'Camp Furniture', price: 69, pitch: 'A roll-top aluminium camp table that sets up in seconds. Great for car camping.' },
  { title: 'Ridgeline Beanie - Grey', type: 'Hats', price: 29, pitch: BEANIE },
  { title: 'Ridgeline Beanie - Navy', type: 'Hats', price: 29, pitch: BEANIE },
  { title: 'Ridgeline Beanie - Rust', type: 'Hats', price: 29, pitch: BEANIE },
  { title: 'Sun Hat', type: 'Hats', price: 34, pitch: 'A wide-brim sun hat with UPF 50 fabric and a chin strap. Made for desert hikes and paddling.' },
  { title: 'Ember Camp Stove', type: 'Stoves', price: 65, pitch: 'A compact canister stove that boils a litre in three minutes. Ideal for backpacking and fast trips.' },
  { title: 'Ember Camp Stove 2', type: 'Stoves', price: 85, pitch: 'A compact canister stove with a piezo igniter and a wind shield. Ideal for backpacking in wind.' },
  { title: 'Fuel Canister 100g', type: 'Stove Fuel', price: 7, pitch: FUEL },
  { title: 'Fuel Canister 230g', type: 'Stove Fuel', price: 9, pitch: FUEL },
  { title: 'Fuel Canister 450g', type: 'Stove Fuel', price: 13, pitch: FUEL },
  { title: 'Titanium Spork', type: 'Camp Kitchen', price: 12, pitch: 'A featherweight titanium spork with a long handle for freeze-dried meal pouches.' },
  { title: 'Camp Cook Set', type: 'Camp Kitchen', price: 59, pitch: 'A nesting aluminium pot, pan and two bowls. Perfect for cooking for two at camp.' },
  { title: 'Squeeze Water Filter', type: 'Water Treatment', price: 39, vendor: 'ClearStream', pitch: 'A hollow-fibre squeeze filter that removes bacteria and protozoa. Ideal for backpacking and emergency kits.' },
  { title: 'Gravity Water Filter', type: 'Water Treatment', price: 99, vendor: 'ClearStream', pitch: 'A 4-litre gravity filter for groups. Great for base camps and family camping.' },
  { title: 'Baseplate Compass', type: 'Navigation', price: 45, vendor: 'Northfinder', pitch: 'A baseplate compass with a sighting mirror and declination adjustment. Made for off-trail navigation.' },
  { title: 'Hiker First Aid Kit', type: 'First Aid', price: 35, pitch: 'A first aid kit for one to four people on day hikes, in a water-resistant pouch.' },
  { title: 'Bear Canister', type: 'Food Storage', price: 89, vendor: 'Bearproof', pitch: 'A hard-sided bear-resistant food canister, required in many national parks.' },
  { title: 'Backcountry Trowel', type: 'Camp Tools', price: 19, pitch: 'An ultralight aluminium trowel for digging catholes. Leave no trace.' },
  { title: 'Hammock Camp Kit', type: 'Hammocks', price: 119, pitch: 'A nylon hammock with a bug net and tree straps. Ideal for warm-weather camping.' },
  { title: 'Packable Puffy Vest', type: 'Vests', price: 129, pitch: 'A synthetic insulated vest that stays warm when damp. Great for layering on shoulder-season hikes.', option: { name: 'Size', values: ['S', 'M', 'L'] } },
  { title: 'Fleece Pullover - Olive', type: 'Fleece', price: 89, pitch: 'A recycled fleece pullover with a half zip. Made for cool evenings at camp.', option: { name: 'Size', values: ['S', 'M', 'L'] } },
  { title: 'Fleece Pullover - Navy', type: 'Fleece', price: 89, pitch: 'A recycled fleece pullover with a half zip. Made for cool evenings at camp.', option: { name: 'Size', values: ['S', 'M', 'L'] } },
  { title: 'Gaiters', type: 'Footwear Accessories', price: 45, pitch: 'Waterproof gaiters that keep snow and scree out of your boots.' },
  { title: 'Microspikes', type: 'Footwear Accessories', price: 69, vendor: 'Northfinder', pitch: 'Stainless steel traction spikes for icy trails and winter hiking.' },
  { title: 'Solar Lantern', type: 'Lanterns', price: 25, pitch: 'A collapsible solar lantern that charges by day. Great for tents and power cuts.' },
  { title: 'Solar Lantern 2', type: 'Lanterns', price: 35, pitch: 'A collapsible solar lantern with a USB port to charge a phone. Great for tents and power cuts.' },
  { title: 'Headlamp Battery Pack', type: 'Headlamp Accessories', price: 19, pitch: 'A spare battery for Meadow headlamps. Charges over USB.' },
  { title: 'Gift Card', type: 'Gift Cards', price: 50, pitch: 'A digital gift card for anything in the store.' },
];

function handle(title: string): string {
  return title.normalize('NFKD').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

/** The store's items in Shopify `/products.json` shape. */
export function outdoorStorefrontProducts(): StorefrontProduct[] {
  return SPECS.map((s, i) => {
    const values = s.option?.values ?? ['Default Title'];
    return {
      id: 5000 + i,
      handle: handle(s.title),
      title: s.title,
      body_html: `<p>${s.pitch}</p><p>Free shipping on orders over $75. 60-day returns.</p>`,
      product_type: s.type,
      vendor: s.vendor ?? 'Ridgeline',
      tags: (s.tags ?? []).join(', '),
      updated_at: '2024-06-01T10:00:00Z',
      options: [{ name: s.option?.name ?? 'Title' }],
      variants: values.map((v, j) => ({ id: 8000 + i * 10 + j, title: v, option1: v, price: s.price.toFixed(2), available: true, sku: `RL-${i}-${j}` })),
      images: [],
    };
  });
}

export function outdoorProducts(): CatalogProduct[] {
  return outdoorStorefrontProducts().map((p) => toCatalogProduct(p, ORIGIN, 'USD'));
}

function page(path: string, kind: ScrapedPage['kind'], title: string, markdown: string): ScrapedPage {
  return { url: `${ORIGIN}${path}`, kind, title, description: '', markdown, fingerprint: `fp-${path}`, statusCode: 200 };
}

export function outdoorStore(): StoreSnapshot {
  return {
    business: { name: OUTDOOR_NAME, orgSlug: 'ridgeline', url: ORIGIN, domain: 'ridgeline.example' },
    pages: [
      page('/', 'home', 'Ridgeline Outfitters | Hiking and camping gear', '# Ridgeline Outfitters\n\nHiking, backpacking and camping gear, designed in Oregon and tested on the trail.\n\nFree shipping on US orders over $75. 60-day returns.'),
      page('/pages/about', 'page', 'About', '# About Ridgeline\n\nRidgeline Outfitters started in 2012 in Bend, Oregon. We design our own packs, headlamps and apparel and carry a few trusted brands.'),
    ],
    products: outdoorProducts(),
    collections: [
      { handle: 'camping', title: 'Camping Gear', url: `${ORIGIN}/collections/camping`, description: '' },
      { handle: 'apparel', title: 'Apparel', url: `${ORIGIN}/collections/apparel`, description: '' },
      { handle: 'backpacking', title: 'Backpacking', url: `${ORIGIN}/collections/backpacking`, description: '' },
    ],
    storeSitemapUrls: [{ loc: `${ORIGIN}/` }],
  };
}
