/**
 * The hand-written base catalogue: 24 products of a small specialty-coffee roaster, and its
 * collections. Pure data. `{brand}` is replaced with the (HTML-escaped) store name when the
 * catalogue is built. The order interleaves coffee, gear and gifts so that `products: 6`
 * still gives a store with every main collection filled.
 */

export interface BaseVariant {
  title: string;
  price: string;
  compareAt?: string;
  available?: boolean;
  grams: number;
  sku: string;
}

export interface BaseProduct {
  handle: string;
  title: string;
  productType: string;
  /** Omitted for the roaster's own goods: the store name is the vendor. */
  vendor?: string;
  tags: string[];
  optionName: 'Size' | 'Color' | 'Frequency' | 'Amount' | 'Title';
  variants: BaseVariant[];
  /** How many images (1-3): `<handle>.jpg`, `<handle>-2.jpg`, `<handle>-3.jpg`. */
  images: number;
  body: string;
  collections: string[];
  giftCard?: boolean;
}

export interface BaseCollection {
  handle: string;
  title: string;
  description: string;
}

export const BASE_COLLECTIONS: BaseCollection[] = [
  { handle: 'all', title: 'All Products', description: 'Everything we roast, brew with and ship from our Portland, Maine roastery.' },
  { handle: 'single-origin', title: 'Single-Origin Coffee', description: 'Traceable lots from individual farms and washing stations, roasted light to medium to show where they grew. Roasted Monday to Thursday and shipped within one business day.' },
  { handle: 'blends-espresso', title: 'Blends & Espresso', description: 'Year-round blends built for balance: our house drip coffee, a chocolate-forward espresso and a dark roast for the stovetop.' },
  { handle: 'brewing-gear', title: 'Brewing Gear', description: 'The drippers, grinders, kettles and scales we use on our own bar, tested for at least a season before we sell them.' },
  { handle: 'gifts-subscriptions', title: 'Gifts & Subscriptions', description: 'Subscriptions, gift boxes, gift cards and the mugs and totes that carry the {brand} name.' },
  { handle: 'best-sellers', title: 'Best Sellers', description: 'The coffees and tools our regulars reorder most.' },
];

const bag = (sku: string, small: string, large: string, bulk?: string): BaseVariant[] => [
  { title: '12 oz', price: small, grams: 340, sku: `${sku}-12` },
  { title: '2 lb', price: large, grams: 907, sku: `${sku}-32` },
  ...(bulk ? [{ title: '5 lb', price: bulk, grams: 2268, sku: `${sku}-80` }] : []),
];

export const BASE_PRODUCTS: BaseProduct[] = [
  {
    handle: 'ethiopia-yirgacheffe-kochere', title: 'Ethiopia Yirgacheffe Kochere', productType: 'Coffee',
    tags: ['single-origin', 'light-roast', 'washed', 'ethiopia', 'filter'], optionName: 'Size', images: 3,
    variants: bag('HP-ETH-KOC', '21.00', '56.00'), collections: ['single-origin', 'best-sellers'],
    body: '<p>Grown at 1,900–2,100 m by about 650 smallholders who deliver cherry to a single washing station in Kochere, Gedeo Zone. Heirloom varieties, fully washed and dried for 12 days on raised beds.</p><p>Light roast. Tasting notes: jasmine, bergamot and lemon curd. Best as pour-over at 1:16 with water just off the boil.</p>',
  },
  {
    handle: 'harbor-house-blend', title: 'Harbor House Blend', productType: 'Coffee',
    tags: ['blend', 'medium-roast', 'drip', 'everyday'], optionName: 'Size', images: 2,
    variants: bag('HP-HHB', '17.00', '46.00', '105.00'), collections: ['blends-espresso', 'best-sellers'],
    body: '<p>Our everyday drip coffee: 60% Brazil Cerrado natural and 40% Colombia Huila washed, roasted to a medium that holds up to milk. Tasting notes: milk chocolate, toasted almond and red apple.</p><p>Built for auto-drip brewers and French press; use 60 g of coffee per litre of water.</p>',
  },
  {
    handle: 'pine-ridge-pour-over-dripper', title: 'Pine Ridge Ceramic Pour-Over Dripper', productType: 'Brewing Gear', vendor: 'Saltmarsh Pottery',
    tags: ['pour-over', 'ceramic', 'made-in-maine', 'gear'], optionName: 'Color', images: 3,
    variants: [
      { title: 'Sea Glass', price: '38.00', grams: 520, sku: 'SP-DRIP-SEA' },
      { title: 'Pine', price: '38.00', grams: 520, sku: 'SP-DRIP-PIN' },
      { title: 'Driftwood', price: '38.00', grams: 520, sku: 'SP-DRIP-DRF', available: false },
    ],
    collections: ['brewing-gear', 'best-sellers'],
    body: '<p>Wheel-thrown in Biddeford, Maine, from high-fire stoneware with a food-safe glaze. Takes standard #2 cone filters and brews 1 to 4 cups; three spiral ribs keep the filter off the wall for an even draw-down.</p><p>Measures 4.75 in tall with a 5.5 in base that fits most mugs and carafes. Dishwasher safe.</p>',
  },
  {
    handle: 'roasters-choice-subscription', title: "Roaster's Choice Subscription", productType: 'Subscription',
    tags: ['subscription', 'single-origin', 'gift'], optionName: 'Frequency', images: 1,
    variants: [
      { title: 'Every 2 weeks', price: '19.00', grams: 340, sku: 'HP-SUB-2W' },
      { title: 'Every 4 weeks', price: '19.00', grams: 340, sku: 'HP-SUB-4W' },
      { title: '3 months prepaid (monthly)', price: '54.00', grams: 1020, sku: 'HP-SUB-3M' },
    ],
    collections: ['gifts-subscriptions', 'best-sellers'],
    body: '<p>A different 12 oz single-origin coffee from our roaster each shipment, roasted the week it ships, with a card on the farm and a brew recipe. Shipping is always free on subscriptions.</p><p>Skip, pause or cancel any time from your account; prepaid plans end automatically.</p>',
  },
  {
    handle: 'colombia-huila-la-esperanza', title: 'Colombia Huila La Esperanza', productType: 'Coffee',
    tags: ['single-origin', 'medium-roast', 'washed', 'colombia'], optionName: 'Size', images: 2,
    variants: bag('HP-COL-ESP', '19.00', '52.00'), collections: ['single-origin'],
    body: '<p>From the Ramírez family farm near Pitalito, Huila, at 1,750 m: Caturra and Castillo, washed after a 30-hour dry fermentation. Tasting notes: red apple, panela and cacao nib.</p><p>A forgiving coffee that works as drip, pour-over or a bright single-origin espresso.</p>',
  },
  {
    handle: 'enamel-camp-mug', title: 'Enamel Camp Mug', productType: 'Merchandise',
    tags: ['merch', 'mug', 'gift'], optionName: 'Color', images: 2,
    variants: [
      { title: 'Navy', price: '18.00', grams: 210, sku: 'HP-MUG-NAV' },
      { title: 'Bone', price: '18.00', grams: 210, sku: 'HP-MUG-BON' },
    ],
    collections: ['gifts-subscriptions'],
    body: '<p>A 12 oz enamel-coated steel mug, 3.5 in tall, with the {brand} pine and anchor mark. Light enough for the trail, tough enough for the boat.</p><p>Hand wash only; not for use in the microwave.</p>',
  },
  {
    handle: 'foghorn-espresso', title: 'Foghorn Espresso', productType: 'Coffee',
    tags: ['blend', 'espresso', 'medium-dark-roast', 'milk-drinks'], optionName: 'Size', images: 2,
    variants: bag('HP-FOG', '18.00', '49.00', '112.00'), collections: ['blends-espresso', 'best-sellers'],
    body: '<p>Brazil Mogiana natural, Guatemala Huehuetenango washed and a little Sumatra, roasted medium-dark for sweetness in milk. Tasting notes: dark chocolate, molasses and orange peel.</p><p>Our bar recipe: 18 g in, 38 g out in 27–30 seconds at 93 °C.</p>',
  },
  {
    handle: 'kenya-nyeri-gachatha-aa', title: 'Kenya Nyeri Gachatha AA', productType: 'Coffee',
    tags: ['single-origin', 'light-roast', 'washed', 'kenya', 'limited'], optionName: 'Size', images: 2,
    variants: [
      { title: '12 oz', price: '23.00', grams: 340, sku: 'HP-KEN-GAC-12' },
      { title: '2 lb', price: '62.00', grams: 907, sku: 'HP-KEN-GAC-32', available: false },
    ],
    collections: ['single-origin'],
    body: '<p>SL28 and SL34 grown at 1,800 m on the slopes of the Aberdares and processed at the Gachatha factory in Nyeri with double fermentation and soaking. AA screen size 17-18.</p><p>Tasting notes: blackcurrant, pink grapefruit and raw sugar. Limited lot: about 40 bags a year.</p>',
  },
  {
    handle: 'tidewater-hand-burr-grinder', title: 'Tidewater Hand Burr Grinder', productType: 'Brewing Gear',
    tags: ['grinder', 'gear', 'travel'], optionName: 'Title', images: 3,
    variants: [{ title: 'Default Title', price: '89.00', compareAt: '109.00', grams: 640, sku: 'HP-GRND-TW' }],
    collections: ['brewing-gear'],
    body: '<p>38 mm stainless-steel conical burrs on two sealed bearings, with 40 numbered clicks from espresso to French press. Holds 25 g of beans and grinds a pour-over dose in about 40 seconds.</p><p>Aluminium body, 6.7 in tall, 640 g. Clean with the included brush; never wash the burrs in water.</p>',
  },
  {
    handle: 'digital-gift-card', title: 'Digital Gift Card', productType: 'Gift Card',
    tags: ['gift', 'gift-card'], optionName: 'Amount', images: 1, giftCard: true,
    variants: [
      { title: '$25.00', price: '25.00', grams: 0, sku: 'HP-GC-25' },
      { title: '$50.00', price: '50.00', grams: 0, sku: 'HP-GC-50' },
      { title: '$100.00', price: '100.00', grams: 0, sku: 'HP-GC-100' },
    ],
    collections: ['gifts-subscriptions'],
    body: '<p>Delivered by email within minutes, with your message. Never expires and works on coffee, gear and subscriptions.</p>',
  },
  {
    handle: 'guatemala-huehuetenango-las-nubes', title: 'Guatemala Huehuetenango Las Nubes', productType: 'Coffee',
    tags: ['single-origin', 'medium-roast', 'washed', 'guatemala'], optionName: 'Size', images: 1,
    variants: bag('HP-GUA-NUB', '20.00', '54.00'), collections: ['single-origin'],
    body: '<p>Bourbon and Caturra from Finca Las Nubes at 1,650–1,900 m near La Libertad, Huehuetenango, washed and sun-dried on patios. Tasting notes: plum, brown sugar and cocoa.</p><p>A sweet, structured cup that we also use in Foghorn Espresso.</p>',
  },
  {
    handle: 'colombia-sugarcane-decaf', title: 'Colombia Sugarcane Decaf', productType: 'Coffee',
    tags: ['decaf', 'medium-roast', 'colombia'], optionName: 'Size', images: 1,
    variants: bag('HP-DEC', '19.00', '52.00'), collections: ['single-origin'],
    body: '<p>Decaffeinated in Caldas with ethyl acetate made from local sugarcane, removing at least 97% of the caffeine without the flat taste. Tasting notes: caramel, cherry and milk chocolate.</p><p>Roasted medium; good as drip after dinner or as a decaf flat white.</p>',
  },
  {
    handle: 'borosilicate-glass-carafe', title: 'Borosilicate Glass Carafe', productType: 'Brewing Gear',
    tags: ['gear', 'pour-over', 'glass'], optionName: 'Title', images: 2,
    variants: [{ title: 'Default Title', price: '29.00', grams: 330, sku: 'HP-CARAFE-600' }],
    collections: ['brewing-gear'],
    body: '<p>A 600 ml heat-resistant borosilicate glass server with a beech-wood collar, sized for 1 to 4 cups of pour-over. Sits under the Pine Ridge dripper and most cone drippers.</p><p>Dishwasher safe without the collar.</p>',
  },
  {
    handle: 'cold-brew-pitcher-packs', title: 'Cold Brew Pitcher Packs', productType: 'Coffee',
    tags: ['cold-brew', 'summer', 'blend'], optionName: 'Title', images: 2,
    variants: [{ title: 'Default Title', price: '16.00', grams: 400, sku: 'HP-CB-4PK' }],
    collections: ['blends-espresso', 'best-sellers'],
    body: '<p>Four compostable filter packs, each with 3 oz of coarse-ground Harbor House Blend. Steep one pack in 1 quart of cold water for 14 to 18 hours, then lift it out.</p><p>Makes a concentrate to dilute 1:1 with water or milk; keeps for a week in the fridge.</p>',
  },
  {
    handle: 'brazil-cerrado-mineiro-natural', title: 'Brazil Cerrado Mineiro Natural', productType: 'Coffee',
    tags: ['single-origin', 'medium-roast', 'natural', 'brazil'], optionName: 'Size', images: 1,
    variants: bag('HP-BRA-CER', '17.00', '46.00', '98.00'), collections: ['single-origin'],
    body: '<p>Yellow Catuaí from a family farm near Patrocínio, Minas Gerais, at 1,100 m, dried in the whole cherry. Tasting notes: hazelnut, cocoa and brown sugar.</p><p>Low acidity and a heavy body; the base of our house blend.</p>',
  },
  {
    handle: 'slack-tide-gooseneck-kettle', title: 'Slack Tide Gooseneck Kettle', productType: 'Brewing Gear',
    tags: ['gear', 'kettle', 'pour-over'], optionName: 'Title', images: 2,
    variants: [{ title: 'Default Title', price: '54.00', grams: 900, sku: 'HP-KETTLE-1L' }],
    collections: ['brewing-gear'],
    body: '<p>A 1.0 L brushed stainless-steel stovetop kettle with a gooseneck spout for a slow, steady pour and a lid thermometer reading 40–100 °C. Works on gas, electric and induction.</p><p>Hand wash; descale monthly with a citric-acid rinse.</p>',
  },
  {
    handle: 'rwanda-nyamasheke-red-bourbon', title: 'Rwanda Nyamasheke Red Bourbon', productType: 'Coffee',
    tags: ['single-origin', 'light-roast', 'washed', 'rwanda'], optionName: 'Size', images: 1,
    variants: bag('HP-RWA-NYA', '20.00', '54.00'), collections: ['single-origin'],
    body: '<p>Red Bourbon from smallholders on the shore of Lake Kivu, Nyamasheke District, grown at 1,700 m and washed at a cooperative station. Tasting notes: cranberry, black tea and honey.</p><p>Hand-sorted twice on drying tables to remove defects.</p>',
  },
  {
    handle: 'dockside-dark-roast', title: 'Dockside Dark Roast', productType: 'Coffee',
    tags: ['blend', 'dark-roast', 'french-press'], optionName: 'Size', images: 1,
    variants: bag('HP-DOCK', '17.00', '46.00', '105.00'), collections: ['blends-espresso'],
    body: '<p>Sumatra Aceh and Brazil Cerrado taken to a dark roast, just to the second crack and no further, so it stays smoky rather than burnt. Tasting notes: baker\'s chocolate, cedar and toasted marshmallow.</p><p>Made for French press, moka pot and percolators.</p>',
  },
  {
    handle: 'unbleached-cone-filters', title: 'Unbleached #2 Cone Filters (100 ct)', productType: 'Brewing Gear', vendor: 'Saltmarsh Pottery',
    tags: ['gear', 'filters', 'pour-over'], optionName: 'Title', images: 1,
    variants: [{ title: 'Default Title', price: '7.00', grams: 120, sku: 'SP-FILT-100' }],
    collections: ['brewing-gear'],
    body: '<p>100 unbleached paper filters in the #2 cone size, made from FSC-certified pulp. Fits the Pine Ridge dripper and most 1–4 cup cone brewers.</p><p>Rinse with hot water before brewing to remove paper taste.</p>',
  },
  {
    handle: 'waxed-canvas-market-tote', title: 'Waxed Canvas Market Tote', productType: 'Merchandise',
    tags: ['merch', 'tote', 'gift', 'made-in-usa'], optionName: 'Title', images: 2,
    variants: [{ title: 'Default Title', price: '48.00', compareAt: '58.00', grams: 700, sku: 'HP-TOTE' }],
    collections: ['gifts-subscriptions'],
    body: '<p>Sewn in Lewiston, Maine, from 16 oz waxed cotton canvas with leather handles and copper rivets. Measures 15 × 14 × 6 in; holds four 2 lb bags of coffee.</p><p>Spot clean only; re-wax once a year to keep it water-resistant.</p>',
  },
  {
    handle: 'sumatra-aceh-gayo', title: 'Sumatra Aceh Gayo', productType: 'Coffee',
    tags: ['single-origin', 'medium-dark-roast', 'wet-hulled', 'indonesia'], optionName: 'Size', images: 1,
    variants: bag('HP-SUM-GAY', '18.00', '49.00'), collections: ['single-origin'],
    body: '<p>Grown by members of a Gayo highlands cooperative around Lake Laut Tawar at 1,400–1,600 m and wet-hulled, the traditional Sumatran process. Tasting notes: cedar, dark cocoa and clove.</p><p>Full-bodied and low in acidity.</p>',
  },
  {
    handle: 'single-origin-tasting-flight', title: 'Single-Origin Tasting Flight', productType: 'Coffee',
    tags: ['sampler', 'single-origin', 'gift'], optionName: 'Title', images: 2,
    variants: [{ title: 'Default Title', price: '28.00', grams: 460, sku: 'HP-FLIGHT-4' }],
    collections: ['single-origin', 'gifts-subscriptions'],
    body: '<p>Four 4 oz bags of the single origins currently on our bar, from four different countries, with a tasting card for each. Enough for two pour-overs of every coffee.</p><p>The flight changes with the seasons; each box lists its coffees and roast date.</p>',
  },
  {
    handle: 'half-moon-coffee-scale', title: 'Half Moon Digital Coffee Scale', productType: 'Brewing Gear',
    tags: ['gear', 'scale', 'espresso', 'pour-over'], optionName: 'Title', images: 2,
    variants: [{ title: 'Default Title', price: '42.00', grams: 410, sku: 'HP-SCALE' }],
    collections: ['brewing-gear'],
    body: '<p>Weighs to 0.1 g up to 2 kg with a built-in shot timer, and charges over USB-C (about 30 hours per charge). The 5.1 in square platform fits under espresso portafilters and pour-over carafes.</p><p>Silicone mat included; wipe with a damp cloth.</p>',
  },
  {
    handle: 'coffee-lovers-gift-box', title: "Coffee Lover's Gift Box", productType: 'Gift Set',
    tags: ['gift', 'bundle', 'holiday'], optionName: 'Title', images: 3,
    variants: [{ title: 'Default Title', price: '58.00', compareAt: '66.00', grams: 1100, sku: 'HP-GIFTBOX' }],
    collections: ['gifts-subscriptions', 'best-sellers'],
    body: '<p>A 12 oz bag of Harbor House Blend, an Enamel Camp Mug in navy and 100 cone filters, packed in a recycled kraft box with a handwritten card. Saves $8 on buying the pieces separately.</p><p>Ships free anywhere in the US.</p>',
  },
];
