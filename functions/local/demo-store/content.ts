/**
 * The brand, content pages and journal posts of the demo store. Pure data; `{brand}` is
 * replaced with the HTML-escaped store name when rendered. The facts are concrete on purpose
 * (thresholds, days, grams): the AI site generated from this store should have real answers.
 */

export const DEFAULT_STORE_NAME = 'Harbor & Pine Coffee Co.';

export const BRAND = {
  tagline: 'Small-batch coffee, roasted on the Maine coast.',
  story:
    '{brand} started in 2016 in a rented garage in Portland, Maine, with a 5 kg roaster and standing orders from two cafés. ' +
    'Today we roast about 900 kg a week on a 15 kg drum roaster at our Wharf Street roastery, buy from 14 producers in 9 countries, ' +
    'and still roast every order within a day of shipping it.',
  address: { street: '48 Wharf Street', city: 'Portland', region: 'ME', postalCode: '04101', country: 'US' },
  phone: '(207) 555-0143',
  email: 'hello@harborandpine.example',
  hours: 'Tasting room open Wednesday to Sunday, 8 am to 3 pm',
  freeShippingThreshold: '45.00',
  currency: 'USD',
};

export interface FaqItem {
  q: string;
  a: string;
}

export const FAQ: FaqItem[] = [
  { q: 'When is my coffee roasted?', a: 'We roast Monday to Thursday and ship every order within one business day of roasting. The roast date is printed on every bag.' },
  { q: 'How long does shipping take?', a: 'USPS Ground Advantage takes 2 to 5 business days within the US; Priority Mail takes 1 to 3. Orders placed before noon Eastern, Monday to Thursday, ship the same day.' },
  { q: 'Do you offer free shipping?', a: 'Yes: US orders over $45 ship free, and subscriptions always ship free. Below $45, standard shipping is a flat $6.50.' },
  { q: 'Can you grind my coffee?', a: 'Yes. Choose whole bean or one of four grinds (espresso, pour-over, drip, French press) in the order notes. Whole bean stays fresh about twice as long.' },
  { q: 'How should I store coffee?', a: 'Keep it in the resealable bag or an airtight container, away from light and heat, and use it within 4 weeks of the roast date. Do not refrigerate it; freeze only sealed, unopened bags.' },
  { q: 'How do subscriptions work?', a: 'Pick a coffee and a frequency of 1 to 6 weeks. You can skip, pause, change or cancel any time from your account, up to 2 days before the next roast.' },
  { q: 'Do you ship internationally?', a: 'We ship to Canada for a flat $18 (5 to 10 business days, duties included). We do not ship outside the US and Canada yet.' },
  { q: 'What if I do not like a coffee?', a: 'Email us within 30 days and we will replace it with a different coffee, free, including shipping. Coffee cannot be returned for a refund once opened.' },
  { q: 'Do you sell wholesale?', a: 'Yes, to cafés, restaurants and offices in New England, from 10 lb a week. Write to us through the contact page for a price list and a free sample box.' },
  { q: 'Is your packaging recyclable?', a: 'Our bags are recyclable #4 LDPE with a paper label, and shipping boxes are 100% recycled kraft cardboard. Subscription mailers are compostable.' },
];

export interface ContentPage {
  handle: string;
  title: string;
  metaDescription: string;
  body: string;
  /** False for a page the merchant hid from search: linked from the footer only (tests HTML discovery). */
  inSitemap: boolean;
  createdAt: string;
  updatedAt: string;
}

export const PAGES: ContentPage[] = [
  {
    handle: 'about', title: 'Our Story', inSitemap: true,
    createdAt: '2016-05-02T09:00:00-05:00', updatedAt: '2025-01-14T10:20:00-05:00',
    metaDescription: 'How {brand} went from a garage roaster in Portland, Maine, to a 15 kg roastery buying from 14 producers.',
    body:
      '<p>{brand} started in 2016 in a rented garage off Forest Avenue in Portland, Maine. Maya Lindqvist had spent six years as a green-coffee buyer; Tom Okafor had run the bar at two of the city\'s busiest cafés. They bought a used 5 kg roaster, signed two cafés as their first wholesale customers and sold the rest at the Saturday farmers\' market.</p>' +
      '<h2>How we buy</h2><p>We buy from 14 producers and cooperatives in 9 countries, most of them for three harvests or more. We pay at least 50% above the Fairtrade minimum for every lot, publish what we paid on each coffee\'s card, and visit each origin at least once every two years.</p>' +
      '<h2>How we roast</h2><p>Since 2021 we roast on a 15 kg drum roaster at 48 Wharf Street, about 900 kg a week, Monday to Thursday. Every batch is cupped the next morning before it is packed, and every order ships within one business day of roasting.</p>' +
      '<h2>Where to find us</h2><p>Our tasting room at the roastery is open Wednesday to Sunday, 8 am to 3 pm, and you can find our coffee in 40 cafés and grocers across New England.</p>',
  },
  {
    handle: 'shipping-returns', title: 'Shipping & Returns', inSitemap: true,
    createdAt: '2016-05-02T09:10:00-05:00', updatedAt: '2025-03-03T08:45:00-05:00',
    metaDescription: 'Free US shipping over $45, same-day dispatch before noon, 30-day returns on gear and a coffee replacement promise.',
    body:
      '<h2>Shipping</h2><ul>' +
      '<li><strong>Free standard shipping</strong> on US orders over $45. Below that, a flat $6.50.</li>' +
      '<li>USPS Ground Advantage: 2 to 5 business days. Priority Mail: 1 to 3 business days for $12.</li>' +
      '<li>Orders placed before noon Eastern, Monday to Thursday, are roasted and shipped the same day; later orders ship the next roast day.</li>' +
      '<li>Canada: flat $18, 5 to 10 business days, duties and taxes included. We do not ship elsewhere yet.</li>' +
      '<li>Local pickup at 48 Wharf Street, Portland, is free; we email you when your order is ready.</li></ul>' +
      '<h2>Returns</h2><ul>' +
      '<li>Unused brewing gear and merchandise can be returned within <strong>30 days</strong> of delivery for a full refund. Return shipping is free for orders over $45.</li>' +
      '<li>Coffee cannot be returned once opened, but if you do not like a coffee, email us within 30 days and we will send a different one, free.</li>' +
      '<li>Refunds go back to the original payment method within 5 business days of the return reaching us.</li>' +
      '<li>Damaged or wrong item? Email a photo within 14 days of delivery and we will ship a replacement at no cost.</li>' +
      '<li>Gift cards and opened subscription shipments are not refundable.</li></ul>',
  },
  {
    handle: 'faq', title: 'Frequently Asked Questions', inSitemap: true,
    createdAt: '2017-02-10T11:00:00-05:00', updatedAt: '2025-02-18T15:30:00-05:00',
    metaDescription: 'Answers about roasting dates, shipping times, grinding, storage, subscriptions, international shipping and wholesale.',
    body: '', // rendered from FAQ
  },
  {
    handle: 'contact', title: 'Contact Us', inSitemap: true,
    createdAt: '2016-05-02T09:20:00-05:00', updatedAt: '2024-09-09T09:00:00-05:00',
    metaDescription: 'Email, phone and visiting hours for the {brand} roastery and tasting room on Wharf Street, Portland, Maine.',
    body:
      '<p>We answer email within one business day, Monday to Friday.</p>' +
      '<ul><li>Email: <a href="mailto:hello@harborandpine.example">hello@harborandpine.example</a></li>' +
      '<li>Phone: (207) 555-0143, Monday to Friday, 9 am to 4 pm Eastern</li>' +
      '<li>Roastery and tasting room: 48 Wharf Street, Portland, ME 04101. Open Wednesday to Sunday, 8 am to 3 pm.</li>' +
      '<li>Wholesale: ask for our price list and a free sample box.</li></ul>',
  },
  {
    handle: 'brew-guide', title: 'Brew Guide', inSitemap: false,
    createdAt: '2019-08-20T13:00:00-05:00', updatedAt: '2024-12-02T12:00:00-05:00',
    metaDescription: 'Our recipes for pour-over, French press, espresso and cold brew, with ratios, grind sizes and water temperatures.',
    body:
      '<p>Every recipe starts with fresh coffee (4 to 30 days off roast), a scale and filtered water.</p>' +
      '<h2>Pour-over (Pine Ridge dripper)</h2><p>15 g coffee, medium-fine grind, 250 g water at 94 °C. Bloom with 45 g for 40 seconds, then pour in slow circles to 250 g by 1:45. Total time: 2:45 to 3:15.</p>' +
      '<h2>French press</h2><p>30 g coarse coffee to 500 g water at 96 °C. Stir at 1 minute, steep 4 minutes in all, skim the crust and press gently.</p>' +
      '<h2>Espresso</h2><p>18 g in, 36 to 40 g out in 27 to 30 seconds at 93 °C. Grind finer if it runs fast and sour, coarser if it runs slow and bitter.</p>' +
      '<h2>Cold brew</h2><p>1 part coarse coffee to 8 parts cold water by weight, 14 to 18 hours in the fridge. Dilute the concentrate 1:1.</p>',
  },
];

export interface BlogPost {
  handle: string;
  title: string;
  author: string;
  publishedAt: string;
  updatedAt: string;
  excerpt: string;
  tags: string[];
  body: string;
}

export const BLOG = { handle: 'journal', title: 'Journal', description: 'Stories from origin trips, the roastery and our bar.' };

export const POSTS: BlogPost[] = [
  {
    handle: 'meeting-the-producers-of-kochere', title: 'Meeting the Producers Behind Our Kochere', author: 'Maya Lindqvist',
    publishedAt: '2024-02-12T08:00:00-05:00', updatedAt: '2024-02-12T08:00:00-05:00', tags: ['origin', 'ethiopia'],
    excerpt: 'Five days in Gedeo Zone with the washing station that has supplied our Ethiopian coffee for four harvests.',
    body:
      '<p>In December I spent five days in Kochere, in Ethiopia\'s Gedeo Zone, at the washing station that has supplied our Yirgacheffe for four harvests. About 650 smallholders deliver ripe cherry there, most of them farming less than a hectare.</p>' +
      '<p>This year the station added 40 more raised drying beds, which let them dry every lot for a full 12 days instead of rushing the last ones. You can taste it: the 2024 lot is the cleanest and most floral we have bought.</p>' +
      '<p>We paid $4.10 per pound FOB for this lot, 38% more than last year, and committed to the same volume for the next two harvests.</p>',
  },
  {
    handle: 'dialing-in-espresso-at-home', title: 'Dialing In Espresso at Home: A 15-Minute Method', author: 'Tom Okafor',
    publishedAt: '2024-06-03T08:00:00-05:00', updatedAt: '2024-08-19T10:30:00-05:00', tags: ['brewing', 'espresso'],
    excerpt: 'Fix the dose and the yield, change only the grind, and taste every shot. Here is the routine we teach new baristas.',
    body:
      '<p>Most home espresso problems come from changing three things at once. Fix the dose at 18 g and the target yield at 38 g, and change only the grind.</p>' +
      '<p>Pull a shot and time it. Under 25 seconds and sour: grind two steps finer. Over 32 seconds and bitter: two steps coarser. Taste every shot, and write the setting on a strip of tape on the grinder.</p>' +
      '<p>With Foghorn Espresso, most home grinders land within four shots. Once it tastes right, stop: beans change slowly over the three weeks after roasting, so re-check once a week.</p>',
  },
  {
    handle: 'the-cold-brew-ratio-we-keep-coming-back-to', title: 'The Cold Brew Ratio We Keep Coming Back To', author: 'Tom Okafor',
    publishedAt: '2024-07-15T08:00:00-05:00', updatedAt: '2024-07-15T08:00:00-05:00', tags: ['brewing', 'cold-brew', 'summer'],
    excerpt: 'One part coffee to eight parts water, 16 hours in the fridge, and a coarse grind. Why we stopped chasing stronger concentrates.',
    body:
      '<p>We have tested cold brew ratios from 1:4 to 1:12. The one we keep coming back to is 1:8 by weight: 125 g of coarse coffee to 1 litre of cold water, steeped 16 hours in the fridge.</p>' +
      '<p>Stronger concentrates extract unevenly and taste muddy; weaker ones go flat when poured over ice. At 1:8 you dilute 1:1 with water or milk and get a smooth, chocolatey glass.</p>' +
      '<p>Our Cold Brew Pitcher Packs are pre-measured to this ratio for a quart pitcher, so there is nothing to weigh.</p>',
  },
  {
    handle: 'inside-roast-day', title: 'Inside Roast Day: From Green Bean to Your Door', author: 'Maya Lindqvist',
    publishedAt: '2025-01-20T08:00:00-05:00', updatedAt: '2025-01-20T08:00:00-05:00', tags: ['roastery'],
    excerpt: 'What happens between the 6 am warm-up and the 3 pm mail pickup on a Wednesday at the roastery.',
    body:
      '<p>Roast day starts at 6 am, when the 15 kg drum roaster takes 40 minutes to warm up. We roast the day\'s orders first, lightest coffees first, about 18 batches by noon.</p>' +
      '<p>Each batch rests overnight before we cup it the next morning; anything off-profile goes to our staff jar rather than into a bag. Orders are packed by hand, labelled with the roast date and handed to the mail carrier at 3 pm.</p>' +
      '<p>Chaff goes to a community garden in East Deering, and the burlap sacks go to anyone who asks at the tasting room.</p>',
  },
];
