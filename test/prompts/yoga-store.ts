/**
 * A real-shaped yoga store (Shopify `/products.json` items, converted like discovery does):
 * 51 similar mats and accessories, a product line whose name is close to the brand
 * ("SukhaGrip", "Sukha PRO" on "Sukha Yoga Co."), thickness figures in many titles, the
 * brand as vendor, and messy HTML descriptions (shared boilerplate, spec lines, a long
 * "designed for ..." clause, a "for for" typo).
 */
import { toCatalogProduct, type StorefrontProduct } from '../../functions/core/products/catalog';
import type { CatalogProduct, ScrapedPage, StoreSnapshot } from '../../functions/core/site/types';

export const YOGA_NAME = 'Sukha Yoga Co.';
const ORIGIN = 'https://sukhayoga.example';

interface Spec {
  title: string;
  type: string;
  price: number;
  vendor?: string;
  /** The product's own selling points (its first paragraph). */
  pitch: string;
  specs?: string;
  colours?: string[];
  sizes?: string[];
  tags?: string[];
}

const BOILERPLATE = '<p>At Sukha Yoga we believe every practice deserves a mat that is designed for yogis of every level providing the support you need at every stage of your practice and beyond.</p><p><strong>FREE SHIPPING</strong> on orders over $75&nbsp;· 30-day returns.</p>';

const MAT_COLOURS = ['Midnight', 'Sage', 'Clay', 'Black', 'Ocean'];

const SPECS: Spec[] = [
  { title: 'SukhaGrip Yoga Mat 6mm', type: 'Yoga Mats', price: 98, colours: MAT_COLOURS, tags: ['hot yoga', 'natural rubber'], specs: 'Thickness: 6mm | Size: 183 x 66 cm | Weight: 2.5 kg',
    pitch: 'Our best-selling non-slip mat with a sweat-wicking polyurethane top layer bonded to natural rubber. Ideal for hot yoga and sweaty vinyasa flows. Perfect for for added grip when your hands get wet.' },
  { title: 'SukhaGrip Yoga Mat 4mm', type: 'Yoga Mats', price: 88, colours: ['Midnight', 'Sage', 'Black'], tags: ['natural rubber'], specs: 'Thickness: 4mm | Size: 183 x 66 cm',
    pitch: 'The lighter non-slip SukhaGrip with a sweat-wicking polyurethane surface on natural rubber. Great for vinyasa and power yoga where you want to feel the floor.' },
  { title: 'SukhaGrip XL Yoga Mat 6mm', type: 'Yoga Mats', price: 118, colours: ['Black', 'Sage'], tags: ['extra long'], specs: 'Thickness: 6mm | Size: 200 x 80 cm',
    pitch: 'An extra long, extra wide non-slip mat for tall yogis. Polyurethane top, natural rubber base. Made for tall practitioners who hang off standard mats.' },
  { title: 'SukhaGrip Travel Mat 1.5mm', type: 'Yoga Mats', price: 64, colours: ['Sage', 'Clay'], tags: ['travel'], specs: 'Thickness: 1.5mm | Weight: 1 kg',
    pitch: 'A foldable, lightweight travel mat that packs into a carry-on. Natural rubber with a grippy polyurethane top. Perfect for travel and hotel-room practice.' },
  { title: 'SukhaGrip Hot Yoga Mat 5mm', type: 'Yoga Mats', price: 105, colours: ['Midnight', 'Ocean'], tags: ['hot yoga'], specs: 'Thickness: 5mm',
    pitch: 'Built for Bikram and hot yoga: a closed-cell surface that does not soak up sweat, with a non-slip natural rubber base. Easy to wipe clean.' },
  { title: 'Sukha PRO Yoga Mat 6mm', type: 'Yoga Mats', price: 129, colours: ['Black', 'Plum', 'Slate'], tags: ['pro'], specs: 'Thickness: 6mm | Size: 180 x 66 cm | Weight: 3.4 kg',
    pitch: 'Dense cushioning that protects knees and wrists, a closed-cell PVC-free surface and a lifetime guarantee. Ideal for daily practice and yoga teachers.' },
  { title: 'Sukha PRO Yoga Mat 8mm', type: 'Yoga Mats', price: 139, colours: ['Black', 'Plum'], specs: 'Thickness: 8mm',
    pitch: 'Our thickest mat: extra cushioning for sensitive joints and restorative yoga, with a closed-cell surface that keeps sweat out. Great for yin yoga and floor work.' },
  { title: 'Sukha PRO Lite Yoga Mat 4.5mm', type: 'Yoga Mats', price: 109, colours: ['Black', 'Slate'], specs: 'Thickness: 4.5mm | Weight: 1.8 kg',
    pitch: 'The lighter PRO: the same dense, supportive feel at half the weight. Perfect for carrying to studio classes.' },
  { title: 'Sukha PRO Travel Mat 2mm', type: 'Yoga Mats', price: 79, colours: ['Black'], specs: 'Thickness: 2mm',
    pitch: 'A thin PRO mat that rolls tight for travel. PVC-free and easy to clean. Ideal for layering over studio mats.' },
  { title: 'Terra Cork Yoga Mat 5mm', type: 'Yoga Mats', price: 95, colours: ['Natural'], tags: ['cork', 'eco'], specs: 'Thickness: 5mm | Cork top, natural rubber base',
    pitch: 'A natural cork surface that gets grippier as you sweat, on a natural rubber base. Cork is naturally antimicrobial, so the mat stays fresh. Ideal for hot yoga and eco-conscious yogis.' },
  { title: 'Terra Cork Yoga Mat 3mm', type: 'Yoga Mats', price: 85, colours: ['Natural'], tags: ['cork', 'eco'], specs: 'Thickness: 3mm',
    pitch: 'A thinner, lighter cork mat with a biodegradable natural rubber base. Great for balance poses and travel.' },
  { title: 'Terra Jute Yoga Mat 5mm', type: 'Yoga Mats', price: 72, colours: ['Natural', 'Sand'], tags: ['jute', 'eco'], specs: 'Thickness: 5mm',
    pitch: 'Woven jute fibres on a PVC-free base give a rustic, textured grip. Biodegradable and plastic-free. Suited for slow flows and meditation.' },
  { title: 'Terra Organic Cotton Yoga Rug', type: 'Yoga Mats', price: 68, colours: ['Cream', 'Indigo'], tags: ['cotton', 'eco'],
    pitch: 'A hand-woven organic cotton rug in the traditional Mysore style. Machine washable. Perfect for Ashtanga practice and layering over a rubber mat.' },
  { title: 'Align Yoga Mat 6mm', type: 'Yoga Mats', price: 69, colours: ['Lilac', 'Teal', 'Grey'], tags: ['beginners'], specs: 'Thickness: 6mm | TPE',
    pitch: 'Printed alignment lines help you place hands and feet in every pose. Lightweight TPE foam, reversible and latex-free. Ideal for beginners.' },
  { title: 'Align Yoga Mat 4mm', type: 'Yoga Mats', price: 59, colours: ['Lilac', 'Grey'], specs: 'Thickness: 4mm',
    pitch: 'A thinner alignment mat in lightweight, latex-free TPE. Great for home workouts and pilates.' },
  { title: 'Align Kids Yoga Mat 4mm', type: 'Yoga Mats', price: 39, colours: ['Teal', 'Pink'], tags: ['kids'], specs: 'Thickness: 4mm',
    pitch: 'A smaller, colourful mat with animal prints and alignment lines. Latex-free and easy to wipe. Made for kids and family yoga.' },
  { title: 'Everyday Yoga Mat 6mm', type: 'Yoga Mats', price: 45, colours: ['Black', 'Blue', 'Grey'], specs: 'Thickness: 6mm | PVC',
    pitch: 'An affordable, cushioned PVC mat for everyday practice. Textured on both sides. Good for gym classes and stretching.' },
  { title: 'Everyday Yoga Mat 10mm', type: 'Yoga Mats', price: 49, colours: ['Black', 'Grey'], specs: 'Thickness: 10mm | NBR foam',
    pitch: 'Extra thick NBR foam that cushions knees during floor exercises. Comes with a carrying strap. Great for pilates and stretching at home.' },
  { title: 'Sukha PRO Yoga Mat 6mm – Limited Edition Ombre', type: 'Yoga Mats', price: 139, specs: 'Thickness: 6mm',
    pitch: 'The PRO in a limited ombre dye. Dense cushioning and a closed-cell surface.' },
  { title: 'Cork Yoga Block', type: 'Yoga Blocks', price: 24, colours: ['Natural'], tags: ['cork'], specs: 'Size: 23 x 15 x 7.5 cm',
    pitch: 'A dense, sustainable cork block with rounded edges. Heavier and steadier than foam. Ideal for supported poses and restorative yoga.' },
  { title: 'Foam Yoga Block', type: 'Yoga Blocks', price: 14, colours: ['Sage', 'Lilac', 'Black'], specs: 'Size: 23 x 15 x 10 cm',
    pitch: 'A lightweight, recycled EVA foam block. Soft on the hands. Great for beginners working on flexibility.' },
  { title: 'SukhaGrip Yoga Block Set', type: 'Yoga Blocks', price: 32, tags: ['set'],
    pitch: 'Two foam blocks with a grippy non-slip finish that matches the SukhaGrip mats.' },
  { title: 'Bamboo Yoga Wheel', type: 'Yoga Props', price: 46,
    pitch: 'A sturdy wheel with a bamboo frame and a cushioned TPE sleeve. Perfect for backbends and opening the chest and shoulders.' },
  { title: 'Organic Cotton Yoga Strap 8ft', type: 'Yoga Straps', price: 16, colours: ['Natural', 'Sage'], tags: ['cotton'],
    pitch: 'A sturdy organic cotton strap with a metal D-ring buckle. Helps you reach deeper stretches safely. Ideal for hamstring stretches.' },
  { title: 'Organic Cotton Yoga Strap 10ft', type: 'Yoga Straps', price: 19, colours: ['Natural'],
    pitch: 'A longer strap for tall yogis and partner stretches, woven from organic cotton.' },
  { title: 'Stretch Strap with Loops', type: 'Yoga Straps', price: 22,
    pitch: 'Ten numbered loops let you deepen a stretch step by step. Great for physical therapy and dancers.' },
  { title: 'SukhaGrip Hot Yoga Towel', type: 'Yoga Towels', price: 42, colours: ['Midnight', 'Sage', 'Clay', 'Ocean'], tags: ['hot yoga'],
    pitch: 'A microfiber mat towel with silicone grip dots that stops slipping when you sweat. Quick-drying and machine washable. Made for hot yoga.' },
  { title: 'Hand Towel for Yoga', type: 'Yoga Towels', price: 15,
    pitch: 'A small, absorbent microfiber towel for your face and hands between poses.' },
  { title: 'Sukha PRO Mat Towel', type: 'Yoga Towels', price: 48,
    pitch: 'A plush, full-length towel sized for the PRO mats. Absorbs sweat fast.' },
  { title: 'Canvas Yoga Mat Bag', type: 'Yoga Bags', price: 39, colours: ['Sand', 'Black'],
    pitch: 'A roomy canvas bag with a zip pocket for keys and a phone. Fits mats up to 6mm thick. Perfect for commuting to class.' },
  { title: 'Yoga Mat Sling', type: 'Yoga Bags', price: 18,
    pitch: 'A simple adjustable cotton sling for carrying a rolled mat over your shoulder.' },
  { title: 'Waterproof Yoga Backpack', type: 'Yoga Bags', price: 79,
    pitch: 'A waterproof backpack with a mat holder, a laptop sleeve and a wet pocket for sweaty clothes. Ideal for commuters who practise before or after work.' },
  { title: 'Buckwheat Meditation Cushion', type: 'Meditation Cushions', price: 55, colours: ['Indigo', 'Sand'], tags: ['meditation'],
    pitch: 'A zafu cushion filled with organic buckwheat hulls that mould to your shape. Removable, washable cotton cover. Great for long sits and a straight spine.' },
  { title: 'Meditation Bench', type: 'Meditation Cushions', price: 65,
    pitch: 'A folding wooden kneeling bench that takes pressure off your knees and ankles. Ideal for people who cannot sit cross-legged.' },
  { title: 'Rectangular Yoga Bolster', type: 'Yoga Bolsters', price: 62, colours: ['Indigo', 'Sage'],
    pitch: 'A firm cotton bolster filled with kapok. Supports restorative and yin poses. Handles at both ends.' },
  { title: 'Round Yoga Bolster', type: 'Yoga Bolsters', price: 58,
    pitch: 'A cylindrical buckwheat bolster for supported backbends and prenatal yoga.' },
  { title: 'Yoga Mat Cleaner Spray', type: 'Mat Care', price: 14, tags: ['mat care'],
    pitch: 'A plant-based spray with tea tree and lavender oils that cleans and refreshes rubber and cork mats without damaging them.' },
  { title: 'Eye Pillow with Lavender', type: 'Yoga Props', price: 21,
    pitch: 'A silk eye pillow filled with flax seed and dried lavender. Helps you relax in savasana and fall asleep.' },
  { title: 'Yoga Blanket', type: 'Yoga Props', price: 35, colours: ['Grey', 'Sand'],
    pitch: 'A woven recycled cotton blanket for padding under the knees, support in seated poses and warmth in savasana.' },
  { title: 'Sukha PRO Yoga Mat Strap', type: 'Yoga Straps', price: 20,
    pitch: 'A carrying strap with padded shoulder rest for the PRO mats.' },
  { title: 'SukhaGrip Knee Pad', type: 'Yoga Props', price: 26,
    pitch: 'A thick, non-slip knee pad that cushions knees and wrists in kneeling poses.' },
  { title: 'Yoga Socks with Grip', type: 'Yoga Apparel', price: 16, sizes: ['S/M', 'L/XL'],
    pitch: 'Toeless cotton socks with silicone grip soles. Great for pilates, barre and cold studio floors.' },
  { title: 'Yoga Gloves with Grip', type: 'Yoga Apparel', price: 18,
    pitch: 'Fingerless gloves with grip dots that stop your hands slipping on a sweaty mat.' },
  { title: 'Mat Wash Concentrate', type: 'Mat Care', price: 19,
    pitch: 'A concentrated, biodegradable wash for deep-cleaning rubber mats once a month.' },
  { title: 'Yoga Starter Kit', type: 'Yoga Kits', price: 99, tags: ['gift'],
    pitch: 'An Align mat 6mm, two foam blocks and a cotton strap in one box. Ideal for beginners and a thoughtful gift for new yogis.' },
  { title: 'Travel Yoga Kit', type: 'Yoga Kits', price: 89, tags: ['travel', 'gift'],
    pitch: 'The SukhaGrip Travel Mat 1.5mm, a mat towel and a sling. Everything for yoga on the road.' },
  { title: 'Yoga Gift Card', type: 'Gift Cards', price: 50,
    pitch: 'A digital gift card for any mat or prop in the store.' },
  { title: 'Sukha PRO Yoga Mat 6mm Bundle', type: 'Yoga Kits', price: 155,
    pitch: 'The PRO mat 6mm with a matching mat towel.' },
  { title: 'Prenatal Yoga Wedge', type: 'Yoga Props', price: 28,
    pitch: 'A cork wedge that eases pressure on wrists in plank and raises heels in squats. Suited for prenatal yoga and stiff wrists.' },
  { title: 'Acupressure Mat', type: 'Yoga Props', price: 38,
    pitch: 'A cotton mat with thousands of acupressure points and a matching pillow. Helps with back tension and relaxation after long days.' },
  { title: 'Chakra Singing Bowl', type: 'Meditation', price: 45, vendor: 'Himalaya Crafts',
    pitch: 'A hand-hammered brass singing bowl with a wooden striker and cushion. Great for sound baths and meditation.' },
];

function handle(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

/** The store's items in Shopify `/products.json` shape. */
export function yogaStorefrontProducts(): StorefrontProduct[] {
  return SPECS.map((s, i) => {
    const options = s.colours ? ['Colour'] : s.sizes ? ['Size'] : [];
    const values = s.colours ?? s.sizes ?? ['Default Title'];
    return {
      id: 7000 + i,
      handle: handle(s.title),
      title: s.title,
      body_html: `<p>${s.pitch}</p>${s.specs ? `<ul><li>${s.specs.split(' | ').join('</li><li>')}</li></ul>` : ''}${BOILERPLATE}`,
      product_type: s.type,
      vendor: s.vendor ?? 'Sukha Yoga',
      tags: (s.tags ?? []).join(', '),
      updated_at: '2024-06-01T10:00:00Z',
      options: options.map((name) => ({ name })),
      variants: values.map((v, j) => ({ id: 9000 + i * 10 + j, title: v, option1: v, price: s.price.toFixed(2), available: true, sku: `SK-${i}-${j}` })),
      images: [],
    };
  });
}

export function yogaProducts(): CatalogProduct[] {
  return yogaStorefrontProducts().map((p) => toCatalogProduct(p, ORIGIN, 'USD'));
}

function page(path: string, kind: ScrapedPage['kind'], title: string, markdown: string): ScrapedPage {
  return { url: `${ORIGIN}${path}`, kind, title, description: '', markdown, fingerprint: `fp-${path}`, statusCode: 200 };
}

export function yogaStore(): StoreSnapshot {
  return {
    business: { name: YOGA_NAME, orgSlug: 'sukha-yoga', url: ORIGIN, domain: 'sukhayoga.example' },
    pages: [
      page('/', 'home', 'Sukha Yoga Co. | Non-slip yoga mats and props', '# Sukha Yoga\n\nNon-slip yoga mats, blocks, straps and meditation cushions for yogis at home and in the studio.\n\nFree shipping on US orders over $75. 30-day returns.'),
      page('/pages/about', 'page', 'About', '# About Sukha Yoga\n\nSukhaYoga started in 2016 in Boulder, Colorado. Our SukhaGrip and Sukha PRO mats are tested by yoga teachers for a full year before we sell them.'),
    ],
    products: yogaProducts(),
    collections: [
      { handle: 'yoga-mats', title: 'Yoga Mats', url: `${ORIGIN}/collections/yoga-mats`, description: '' },
      { handle: 'sukhagrip', title: 'SukhaGrip Collection', url: `${ORIGIN}/collections/sukhagrip`, description: '' },
      { handle: 'props', title: 'Yoga Props', url: `${ORIGIN}/collections/props`, description: '' },
      { handle: 'meditation', title: 'Meditation', url: `${ORIGIN}/collections/meditation`, description: '' },
      { handle: 'sale', title: 'Sale', url: `${ORIGIN}/collections/sale`, description: '' },
    ],
    storeSitemapUrls: [{ loc: `${ORIGIN}/` }],
  };
}
