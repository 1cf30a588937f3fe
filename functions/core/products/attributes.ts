/**
 * The facts of a product a comparison lines up (D37): material, hardness, weight, capacity,
 * dimensions, thickness, length, care, origin, battery life, protection rating, power, warranty
 * and how long it keeps drinks cold or hot, each read from the store's own words (the product's
 * name, then its description line by line: `attributesOf`) with the value as the store wrote
 * it. A value nothing states is absent: nothing is guessed. Prices are not compared: they
 * change without the article being rebuilt (D36). Pure.
 *
 *   "Blade: 210 mm VG-10 stainless steel core, hardened to 60 HRC" → material "VG-10 stainless
 *   steel", hardness "60 HRC", length "210 mm"; "Hand wash only ... never in the dishwasher" →
 *   care "hand wash only"; "Made in Japan" → origin "made in Japan".
 *
 * Each attribute says itself in a sentence (`says`): "is hardened to 60 HRC", "weighs 180 g".
 */
import { escapeRegExp, markdownToText, splitSentences } from '../generate/text';
import { materialsOf } from '../prompts/product-words';
import type { CatalogProduct } from '../site/types';

export type AttributeKey =
  | 'material' | 'hardness' | 'weight' | 'capacity' | 'dimensions' | 'thickness' | 'length' | 'care' | 'origin'
  | 'battery' | 'rating' | 'power' | 'brightness' | 'warranty' | 'cold' | 'hot' | 'parts';

export interface Attribute {
  key: AttributeKey;
  /** As the store wrote it ("60 HRC", "Seki, Japan"). */
  value: string;
  /** What two values are compared by (units folded: "1.5 kg" = "1500 g"). */
  norm: string;
}

const NUM = String.raw`(\d+(?:[.,]\d+)?)`;
/** Before a figure: no digit, letter or decimal point ("WHCH520W" is a model, not 520 W). */
const FIGURE_START = String.raw`(?<![\p{L}\d.,])`;

function num(text: string): number {
  return Number(text.replace(',', '.'));
}

/** Grams, millilitres, millimetres: two values of one attribute compare by these. */
const SCALE: Record<string, number> = {
  g: 1, gram: 1, grams: 1, kg: 1000, kilogram: 1000, kilograms: 1000, lb: 453.6, lbs: 453.6, pound: 453.6, pounds: 453.6,
  ml: 1, millilitre: 1, millilitres: 1, milliliter: 1, milliliters: 1, cl: 10, l: 1000, litre: 1000, litres: 1000, liter: 1000, liters: 1000, ltr: 1000,
  qt: 946.4, quart: 946.4, quarts: 946.4, oz: 29.57, 'fl oz': 29.57, gal: 3785, gallon: 3785, gallons: 3785,
  mm: 1, cm: 10, m: 1000, in: 25.4, inch: 25.4, inches: 25.4, '"': 25.4, ft: 304.8, feet: 304.8, foot: 304.8,
};

function measured(value: string, unit: string): string {
  const u = unit.toLowerCase().replace(/\.\s?/, ' ').replace(/\s+/g, ' ').trim();
  const scale = SCALE[u] ?? SCALE[u.replace(/s$/, '')];
  return scale ? String(Math.round(num(value) * scale)) : `${num(value)} ${u}`;
}

interface Reader {
  key: AttributeKey;
  read: (text: string) => { value: string; norm: string } | null;
  /** Of every line's value, the one that holds (default: the first line's, else the name's). */
  pick?: (found: Array<{ value: string; norm: string }>, fromName: { value: string; norm: string } | null, text: string) => { value: string; norm: string };
}

const DENIED_BEFORE = /\b(?:not|never|no|isn'?t|aren'?t)\b[^.;]{0,25}$/i;

function affirmed(text: string, re: RegExp): RegExpExecArray | null {
  const m = re.exec(text);
  return m && !DENIED_BEFORE.test(text.slice(0, m.index)) ? m : null;
}

/** Fibres a garment's composition names with their shares ("60 cotton, 27 viscose, 10 metallic, 3 lycra"). */
const FIBRES = 'organic cotton|cotton|viscose|polyester|recycled polyester|elastane|spandex|lycra|nylon|polyamide|merino wool|merino|wool|silk|linen|modal|acrylic|rayon|cashmere|metallic|lyocell|tencel|hemp|bamboo';
const SHARE = new RegExp(String.raw`(?<![\d.])(\d{1,3})\s*%?\s*(${FIBRES})\b`, 'gi');

/** A composition whose shares add up to the whole: the most exact statement of a material there is. */
function composition(text: string): { value: string; norm: string } | null {
  const shares = [...text.matchAll(SHARE)].map((m) => ({ share: Number(m[1]), fibre: m[2]!.toLowerCase() }));
  const total = shares.reduce((n, x) => n + x.share, 0);
  if (shares.length < 2 || total < 95 || total > 101) return null;
  const parts = shares.map((x) => `${x.share}% ${x.fibre}`);
  return { value: `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`, norm: shares.map((x) => x.fibre).sort().join('+') };
}

const STEEL = /\b([A-Z][A-Za-z]*-?\d[A-Za-z0-9-]*|\d{3,4}[A-Z]?)\s+((?:(?:high[- ]carbon|carbon|stainless|damascus|powder)\s+)*steel)\b/;
const CARE: Array<{ re: RegExp; value: string }> = [
  { re: /\bdishwasher[- ]safe\b|\bsafe (?:in|for) the dishwasher\b/i, value: 'dishwasher-safe' },
  { re: /\bhand[- ]wash(?:ing)?(?: only)?\b|\bwash(?:ed)? by hand\b/i, value: 'hand wash only' },
  { re: /\bmachine[- ]wash(?:able)?\b/i, value: 'machine washable' },
  { re: /\bwipe(?:s)? clean\b/i, value: 'wipe clean' },
];
const ORIGIN = /\b([Mm]ade|[Cc]rafted|[Ff]orged|[Hh]andmade|[Pp]roduced|[Aa]ssembled|[Pp]rinted|[Ww]oven|[Ss]ewn|[Bb]uilt) in ((?:the )?\p{Lu}[\p{L}'-]+(?:(?:,\s*| )\p{Lu}[\p{L}'-]+){0,2})(?=[\s.,;:!)]|$)/u;
/** Materials of sheds, boards and bags the prompt list leaves out (it names what shoppers search by). */
const MORE_MATERIALS = /\b(plastic|timber|oak|walnut|pine|spruce|acacia|teak|vinyl|resin|polyester|nylon|polypropylene|polyethylene|enamel)\b/gi;

/** A material named before one of these is a part's or a surface's ("silicone finish", "bamboo lid"), not the product's. */
const PART_WORDS = 'finish|finished|coating|coated|tops?|lids?|straws?|handles?|seals?|gaskets?|caps?|straps?|print|pattern|look|effect|trim|accents?|sleeves?|covers?|tips?|eartips?|ear ?cups?|cushions?|pads?|feet|rims?|spouts?|bands?|cords?|cables?|boots?|trivets?|grips?|inserts?|collars?|cuffs?|rib|ribbing|rib-band|waistbands?|hems?|linings?|pockets?|sporks?|tins?|frames?|framing|roofs?|doors?|windows?|hinges?|legs?|bases?|insulation|tiles?|bricks?|floors?|wires?|coils?|drivers?|magnets?|diaphragms?';
/**
 * After a material, words that make it a fuel or a use, not what the product is made of ("wood
 * fired", "wood smoke", "a 1 L tin"), or another product's ("for a stainless steel option,
 * explore the V7BSSB").
 */
const USE_WORDS = '-?fired|burning|burner|smoke|storage|pellets?|chips?|logs?|fuel|tins?|brush(?:es)?|cleaner|cutters?|peels?|options?|alternatives?|versions?|models?|-?clad';
/** A part or a use after the material, with at most one word between ("organic cotton lycra collar"). */
const PART_AFTER = new RegExp(`^[\\s-]*(?:[\\p{L}]+\\s+)?(?:${PART_WORDS}|${USE_WORDS})\\b`, 'iu');

/** "silicone gaskets", "bamboo lid": the parts and surfaces a text names by their material, up to three. */
function partsIn(text: string): string[] {
  const materials = [...new Set([...materialsOf(text), ...[...text.matchAll(MORE_MATERIALS)].map((m) => m[1]!.toLowerCase())])];
  const parts = materials.flatMap((m) => [...text.matchAll(new RegExp(`(?<![\\p{L}])${escapeRegExp(m).replace(/ /g, '[\\s-]+')}[\\s-]+(?:${PART_WORDS})(?![\\p{L}])`, 'giu'))].map((x) => x[0].toLowerCase().replace(/\s+/g, ' ')));
  return [...new Set(parts)].slice(0, 3);
}

/**
 * Before a material, words that make it something else's: what the product replaces or beats
 * ("replaces glass and plastic", "basic white plastic plugs"), an imitation ("PU leather"), or
 * a toast ("raise a glass").
 */
const ELSEWHERE_BEFORE = /(?:\b(?:replac\w*|instead of|unlike|than|no more|ditch\w*|swap\w*|toss\w*|put away|forget|goodbye to|no need for|settle for|other|basic|ordinary|standard|cheap|flimsy|typical|usual|traditional|conventional)\b[^.;:]{0,30}|\b(?:available in|photo|shown in|colou?rs?)\b[^.;]{0,30}|\braise (?:a|your) |\b(?:pu|faux|vegan|synthetic|imitation|artificial)[\s-]+|\byour\s+)$/i;
/** A part named before its material in one clause, with a word that links them ("Eartips feature ... soft silicone", "Cable: 1.5 metre rubber", "rib-band are organic cotton"). */
const PART_BEFORE = /\b(?:eartips?|tips|cables?|cords?|straps?|lids?|handles?|gaskets?|seals?|collars?|cuffs?|sleeves?|rib-?band|ribbing|waistbands?|linings?|pockets?|trims?|sporks?)\b(?:\s*(?::|\b(?:is|are|feature|features|made|of|in|with)\b)(?:[^.;,]|\d\.\d){0,40}|(?:\s+[\w.]+){0,3}\s*)$/i;

/** Whether no mention of a material in the text is the product's own: each names a part or a surface, or something else. */
function onlyParts(text: string, material: string): boolean {
  const mentions = [...text.matchAll(new RegExp(`(?<![\\p{L}])${escapeRegExp(material).replace(/ /g, '[\\s-]+')}(?![\\p{L}])`, 'giu'))];
  return mentions.length > 0 && mentions.every((m) => PART_AFTER.test(text.slice((m.index ?? 0) + m[0].length))
    || ELSEWHERE_BEFORE.test(text.slice(Math.max(0, (m.index ?? 0) - 60), m.index))
    || PART_BEFORE.test(text.slice(Math.max(0, (m.index ?? 0) - 80), m.index)));
}

/** The materials a text names, in its order: the shared list's, then these; none named only of a part. */
function materialsIn(text: string): string[] {
  const more = [...text.matchAll(MORE_MATERIALS)].map((m) => m[1]!.toLowerCase());
  return [...new Set([...materialsOf(text), ...more])].filter((m) => !onlyParts(text, m));
}

/** One material, two spellings. */
const SPELLING: Record<string, string> = { aluminium: 'aluminum', 'stainless-steel': 'stainless steel', timber: 'wood' };
const LENGTH_CONTEXT = /\b(?:blade|length)\b|\blong\b(?!-)|^name:/i;
/** A volume that is a supply's, not the product's ("a 1 L tin of touch-up paint" with a shed). */
const NOT_ITS_CAPACITY = /\b(?:paint|tin|treatment|preservative|sealant|stain|oil|fuel|gas bottle|refill)\b/i;
const DRINK_WORDS = /\b(?:cup|tumbler|bottle|mug|jar|flask|jug|glass|pint|holds?|capacity|drinks?|water|coffee|tea)\b/i;

/** A spec table's material row: its label, then the material ("Construction" / "Stainless Steel"). */
const MATERIAL_LABEL = (material: string) => new RegExp(`\\b(?:materials?|construction|body|housing|fabric|composition)\\s*:?\\s*${escapeRegExp(material)}\\b`, 'i');
const PACKAGE_BEFORE = /\b(?:includes?|included|package|packed|contents?|qty|quantity|comes with)\b[^.;]{0,20}$/i;
const PART_SIZE_AFTER = /^\s*(?:[\p{L}-]+\s+){0,2}(?:floor|base|opening|door|window|hole|mouth|cooking area|surface|box|carton|packag\w*)s?\b/iu;

const READERS: Reader[] = [
  { key: 'hardness', read: (t) => { const m = /\b(\d{2})(?:\s*(?:±|\+\/-|-)\s*\d)?\s*(?:HRC|HRc|Rockwell)\b/.exec(t); return m ? { value: `${m[1]} HRC`, norm: m[1]! } : null; } },
  {
    key: 'material', read: (t) => {
      const steel = STEEL.exec(t);
      if (steel) return { value: `${steel[1]} ${steel[2]!.toLowerCase()}`, norm: steel[1]!.toLowerCase().replace(/-/g, '') };
      const shares = composition(t);
      if (shares) return shares;
      const materials = materialsIn(t.replace(/^name:\s*/i, '')).slice(0, 2);
      return materials.length ? { value: materials.join(' and '), norm: materials.map((m) => SPELLING[m] ?? m).sort().join('+') } : null;
    },
    /**
     * A product is made of what its name says ("Plastic Shed"), else of what its text names most
     * ("wood" of a cabin, not the "glass" of its windows).
     */
    pick: (found, fromName, text) => {
      // A composition with its shares ("60% cotton, 27% viscose ...") is what the listing is made of.
      const shares = found.find((f) => f.value.includes('%'));
      if (shares) return shares;
      // The name's material when the description says it too; a name's "Black Linen" is a colourway when the text says "Cotton + Lycra".
      if (fromName && fromName.value.split(' and ').every((m) => new RegExp(`\\b${escapeRegExp(m)}\\b`, 'i').test(text))) return fromName;
      const mentions = (f: { value: string }) => f.value.split(' and ').reduce((n, m) => n + (text.match(new RegExp(`\\b${m}\\b`, 'gi'))?.length ?? 0), 0);
      const most = found.reduce((best, f) => (mentions(f) > mentions(best) ? f : best));
      // "steel" is counted inside every "stainless steel": the text's more exact name of it wins.
      const named = found.find((f) => f.value !== most.value && new RegExp(`\\b${most.value}\\b`).test(f.value)) ?? most;
      // A table's row naming another material ("Construction: Stainless Steel" beside a lens of glass named three times) is the product's.
      const row = found.find((f) => MATERIAL_LABEL(f.value.split(' and ')[0]!).test(text));
      return row && row.norm !== named.norm ? row : named;
    },
  },
  // Case matters: "2G" is a two-gang socket, "4G" a network; a weight is "180 g" or "1.2 kg".
  {
    key: 'weight', read: (t) => {
      const m = new RegExp(String.raw`${FIGURE_START}${NUM}\s*(kg|KG|Kg|g|grams?|kilograms?|lbs?|LBS?|pounds?)\b`, 'u').exec(t);
      // A shipping or package weight is the parcel's, not the product's.
      return m && !/\b(?:shipping|package|packaging|packed|gross|boxed|parcel)\b[^.;]{0,25}$/i.test(t.slice(0, m.index)) ? { value: `${m[1]} ${m[2]!.toLowerCase()}`, norm: measured(m[1]!, m[2]!) } : null;
    },
  },
  {
    key: 'capacity', read: (t) => {
      const m = new RegExp(String.raw`${FIGURE_START}${NUM}\s*(ml|millilit(?:re|er)s?|cl|l|lit(?:re|er)s?|ltr|qt|quarts?|fl\.?\s?oz|oz|gallons?|gal)\b`, 'iu').exec(t);
      if (!m || (/^oz$/i.test(m[2]!) && !DRINK_WORDS.test(t)) || NOT_ITS_CAPACITY.test(t)) return null;
      return { value: `${m[1]} ${m[2]!.replace(/^OZ$/, 'oz').replace(/^QT$/, 'qt')}`, norm: measured(m[1]!, m[2]!) };
    },
  },
  {
    key: 'dimensions', read: (t) => {
      const u = String.raw`(mm|cm|m|in|inches|ft|feet|")?`;
      const m = new RegExp(String.raw`${FIGURE_START}${NUM}\s*${u}\s*(?:x|×)\s*${NUM}\s*${u}(?:\s*(?:x|×)\s*${NUM})?\s*${u}(?![\p{L}\d])`, 'iu').exec(t);
      // "Package Includes 1 x 4\" ... Hole Saw": a count; "60cm x 55cm cooking floor": a part's size.
      if (!m || PACKAGE_BEFORE.test(t.slice(0, m.index)) || PART_SIZE_AFTER.test(t.slice(m.index + m[0].length))) return null;
      const figures = [m[1], m[3], m[5]].filter(Boolean) as string[];
      // "2 x 40mm drivers", "4 x 850 ml": a count of parts, not a width and a depth.
      if (figures.length === 2 && /^\d$/.test(figures[0]!) && num(figures[1]!) >= 10 * num(figures[0]!)) return null;
      const unit = m[6] ?? m[4] ?? m[2] ?? '';
      return { value: `${figures.join(' x ')}${unit ? ` ${unit}` : ''}`, norm: `${figures.map((f) => (unit ? measured(f, unit) : f)).join('x')}` };
    },
  },
  // "3cm thick fire brick floor tiles": a part's thickness, not the product's.
  { key: 'thickness', read: (t) => { const m = new RegExp(String.raw`${NUM}\s*(mm|cm)\s*thick\b(?!\s+(?:[\p{L}-]+\s+){0,3}(?:${PART_WORDS})\b)|thickness:?\s*${NUM}\s*(mm|cm)`, 'iu').exec(t); if (!m) return null; const [n, u] = m[1] ? [m[1], m[2]!] : [m[3]!, m[4]!]; return { value: `${n} ${u}`, norm: measured(n, u) }; } },
  {
    // A blade's or a board's length: said as one ("Blade: 210 mm", "8-inch knife" in a name), never any figure in millimetres.
    key: 'length', read: (t) => {
      if (!LENGTH_CONTEXT.test(t)) return null;
      // "40 mm drivers": a part's size.
      const m = new RegExp(String.raw`(?<![\d.,x×]\s?)${FIGURE_START}${NUM}(?:\s*|-)(mm|cm|inch|inches|in|")(?![\p{L}\d])(?!\s*(?:x|×|thick))(?!\s+(?:[\p{L}-]+\s+){0,2}(?:${PART_WORDS})\b)`, 'iu').exec(t);
      return m ? { value: /inch|in|"/i.test(m[2]!) ? `${m[1]} inches` : `${m[1]} ${m[2]}`, norm: measured(m[1]!, m[2]!) } : null;
    },
  },
  { key: 'care', read: (t) => { for (const c of CARE) if (affirmed(t, c.re)) return { value: c.value, norm: c.value }; return null; } },
  { key: 'origin', read: (t) => { const m = ORIGIN.exec(t); return m ? { value: `${m[1]!.toLowerCase()} in ${m[2]}`, norm: m[2]!.toLowerCase().split(/,\s*/).pop()! } : null; } },
  {
    // A charging time ("charging time: 3.5 h", "5 hours of wireless charging") is no battery life.
    key: 'battery', read: (t) => {
      // "Charging time: approx. 3.5 h" before a battery line is the charge, not the life: the next match is tried.
      const m = [...t.matchAll(/(\d+(?:\.\d+)?)\s*(?:hours?|hrs?|h)\b(?:(?!charg)[^.]){0,30}\b(?:battery|playback|play ?time|listening)|\b(?:battery(?: life)?|playback|play ?time)\b(?:(?!charg)[^.]){0,30}?(\d+(?:\.\d+)?)\s*(?:hours?|hrs?|h)\b(?![^.]{0,12}charg)/gi)]
        .find((x) => !(x[1] && /charg\w*(?:\s+time)?\W{0,3}(?:approx\.?\s*)?$/i.test(t.slice(0, x.index))));
      const n = m?.[1] ?? m?.[2];
      return n ? { value: `${n} hours`, norm: n } : null;
    },
  },
  { key: 'rating', read: (t) => { const m = /\b(IPX?\d{1,2})\b/.exec(t); return m ? { value: m[1]!, norm: m[1]!.toUpperCase() } : null; } },
  {
    // "2.2W/m": a strip light's power per metre, said so.
    key: 'power', read: (t) => {
      const m = new RegExp(String.raw`${FIGURE_START}${NUM}\s*(W|watts?)\b(\s*(?:/|per)\s*(?:m|metre|meter)\b)?`, 'u').exec(t);
      // "30W USB-C", "65w PD charging": a charging port's output, not the product's power.
      if (!m || /^[^.;]{0,14}\b(?:usb|pd\b|charg|output|fast)/i.test(t.slice(m.index + m[0].length)) || /\b(?:usb(?:-[ac])?|charg\w*|output)\W{0,3}$/i.test(t.slice(0, m.index))) return null;
      return { value: `${m[1]} W${m[3] ? ' per metre' : ''}`, norm: `${num(m[1]!)}${m[3] ? '/m' : ''}` };
    },
  },
  { key: 'brightness', read: (t) => { const m = new RegExp(String.raw`${FIGURE_START}(\d{1,3}(?:,\d{3})*|\d+)\s*(?:lm|lumens?)\b`, 'iu').exec(t); return m ? { value: `${m[1]} lumens`, norm: m[1]!.replace(/,/g, '') } : null; } },
  { key: 'warranty', read: (t) => { const m = /\b(\d+)[- ](?:year|yr)s?\b[^.]{0,15}\bwarranty|\bwarranty\b[^.]{0,20}?\b(\d+)\s*years?/i.exec(t); const n = m?.[1] ?? m?.[2]; return n ? { value: `${n}-year warranty`, norm: n } : null; } },
  { key: 'cold', read: (t) => { const m = /\b(?:cold|iced?|chilled)\b[^.]{0,20}?\b(?:for )?(?:up to )?(\d+)\s*(?:hours?|hrs?|h)\b|\b(\d+)\s*(?:hours?|hrs?)\s*(?:cold|iced)\b/i.exec(t); const n = m?.[1] ?? m?.[2]; return n ? { value: `${n} hours`, norm: n } : null; } },
  { key: 'hot', read: (t) => { const m = /\b(?:hot|warm)\b[^.]{0,20}?\b(?:for )?(?:up to )?(\d+)\s*(?:hours?|hrs?|h)\b|\b(\d+)\s*(?:hours?|hrs?)\s*(?:hot|warm)\b/i.exec(t); const n = m?.[1] ?? m?.[2]; return n ? { value: `${n} hours`, norm: n } : null; } },
];

/** Figures that belong to one variant when a product is sold in several sizes. */
const SIZED: readonly AttributeKey[] = ['dimensions', 'length', 'capacity', 'weight', 'thickness'];
const SIZE_OPTION = /size|dimension|length|capacity|volume|thickness|weight|\bcm\b|\bmm\b|\boz\b|\bft\b/i;

/** Labels of a spec table whose value a page renders on the next line ("Cable" / "1.5 metre rubber"). */
const SPEC_LABEL = /^(?:cable|cord|construction|material|materials|body|housing|frame|colou?r|finish|dimensions?|size|weight|power|wattage|ip rating|lumens|brightness|capacity|volume|warranty|battery(?: life)?|voltage|care|origin|lamp type|bulb|fabric|lining|composition)$/i;

/** "Wattage: 3.5W": a label, a colon, a value; or a table's row that opens with its figure ("35 hours battery life"). */
const isSpecLine = (line: string) => /^[A-Z][\w /()&-]{0,40}:\s*\S/.test(line) || (/^\d/.test(line) && line.split(/\s+/).length <= 5);

/** The heading of a spec table ("Technical Specifications", "Specs", "Tech Info"). */
const SPEC_HEADING = /^(?:(?:technical|tech|product) (?:specifications?|specs|info|details)|specifications?|specs)\s*:?$/i;

/** A size's unit ("ft", "" when none) and its figures in order. */
function sizeParts(value: string): { unit: string; figures: string } {
  const words = value.split(/\s+/);
  return { unit: words.filter((w) => !/^[\d.,]+$/.test(w) && w !== 'x').join(' '), figures: words.filter((w) => /^[\d.,]+$/.test(w)).map(Number).sort((a, b) => a - b).join('x') };
}

/** "8 x 4 ... Shed" named, "4 x 6" in its table, one unit: the catalogue contradicts itself. */
function contradicts(a: { value: string }, b: { value: string }): boolean {
  const [x, y] = [sizeParts(a.value), sizeParts(b.value)];
  return x.unit === y.unit && x.figures !== y.figures;
}

/** Lines with a spec table's label and its value on the next line joined as "Label: value", so a value keeps its label. */
function specPairs(raw: readonly string[]): string[] {
  const lines = raw.map((l) => l.trim()).filter(Boolean);
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const next = lines[i + 1];
    // A known label, or any short label followed by a figure ("Shipping Weight" / "0.32 kg").
    if (next !== undefined && !SPEC_LABEL.test(next) && (SPEC_LABEL.test(lines[i]!) || (/^[A-Za-z][A-Za-z /()&-]{1,40}$/.test(lines[i]!) && /^\d/.test(next)))) {
      out.push(`${lines[i]}: ${next}`);
      i++;
    } else out.push(lines[i]!);
  }
  return out;
}

/**
 * The attributes a product's description (the store's text, line by line), then its name
 * state: the first line's value, else the name's (a spec line is more exact than a title's
 * rounded figure; a material is the name's when it names one). Short spec lines count ("Weight: 180 g"): a value needs no sentence around it.
 * A product sold in several sizes (an option named Size, Capacity ...) has no one size: its
 * figures are left out.
 */
export function attributesOf(description: string, name: string, optionNames: readonly string[] = []): Map<AttributeKey, Attribute> {
  const nameLine = `Name: ${name}`;
  const text = markdownToText(description);
  const lines = specPairs(text.split('\n')).flatMap((line) => splitSentences(line));
  // Every line under a "Technical Specifications" heading is the table's, whatever its shape.
  const section = lines.findIndex((l) => SPEC_HEADING.test(l));
  const inSpec = lines.map((l, i) => isSpecLine(l) || (section >= 0 && i > section));
  const specLines = lines.filter((_, i) => inSpec[i]);
  const prose = lines.filter((_, i) => !inSpec[i]);
  const out = new Map<AttributeKey, Attribute>();
  for (const reader of READERS) {
    const fromName = reader.read(nameLine);
    // A spec line ("Wattage: 3.5W") before the prose ("the 5W Tiga Corner"): the spec is exact.
    const found = [...specLines, ...prose].map(reader.read).filter((f) => f !== null);
    // The description's value (the spec) before the name's: a "5W" title never overrides a spec's 3.5 W (issue 45).
    const value = reader.pick && found.length ? reader.pick(found, fromName, text) : found[0] ?? fromName;
    // A size the name and the text disagree on is said by neither.
    if (reader.key === 'dimensions' && value && fromName && value !== fromName && contradicts(value, fromName)) continue;
    if (value) out.set(reader.key, { key: reader.key, ...value });
  }
  const parts = partsIn(text);
  if (parts.length) out.set('parts', { key: 'parts', value: parts.join(', '), norm: parts.join('+') });
  // A product with a length and a width has no single length: a figure in its name is something else ("44mm" logs).
  if (out.has('dimensions')) out.delete('length');
  if (optionNames.some((o) => SIZE_OPTION.test(o))) for (const key of SIZED) out.delete(key);
  // "Tumbler Lid | 40 OZ": the size of the vessel it fits, not what it holds.
  if (ACCESSORY.test(name.split(/\s+[|–-]\s+/)[0]!.trim())) out.delete('capacity');
  return out;
}

/** A name ending in a part sold on its own ("... Tumbler Lid", "Straw Set"), not "Tumbler with Handle". */
const ACCESSORY = /(?<!\bwith\s+)\b(?:lids?|caps?|straws?|straw sets?|stoppers?|covers?|sleeves?|boots?|gaskets?|seals?|coasters?|replacements?)$/i;

/**
 * Whether two values of one attribute differ. Materials differ only when neither names the
 * other and they share none ("stainless steel" and "steel" may be one steel; "oak" and
 * "walnut" differ).
 */
export function differ(a: Attribute, b: Attribute): boolean {
  if (a.norm === b.norm) return false;
  if (a.key !== 'material') return true;
  const [x, y] = [a.value.toLowerCase(), b.value.toLowerCase()];
  // "aluminium" and "aluminum and leather" share a material (norms fold the spelling).
  const shared = a.norm.split('+').some((m) => b.norm.split('+').includes(m));
  return !x.includes(y) && !y.includes(x) && !shared;
}

/** How an attribute reads after its subject: "is hardened to 60 HRC" ("are hardened ..." for a plural subject). */
export function says(attribute: Attribute, plural: boolean): string {
  const be = plural ? 'are' : 'is';
  const v = attribute.value;
  switch (attribute.key) {
    case 'material': return `${be} made of ${v}`;
    case 'hardness': return `${be} hardened to ${v}`;
    case 'weight': return `${plural ? 'weigh' : 'weighs'} ${v}`;
    case 'capacity': return `${plural ? 'hold' : 'holds'} ${v}`;
    case 'dimensions': return `${plural ? 'measure' : 'measures'} ${v}`;
    case 'thickness': return `${be} ${v} thick`;
    case 'length': return `${plural ? 'measure' : 'measures'} ${v}`;
    case 'care': return v === 'hand wash only' ? `${plural ? 'are' : 'is'} hand wash only` : v === 'wipe clean' ? `${plural ? 'wipe' : 'wipes'} clean` : `${be} ${v}`;
    case 'origin': return `${be} ${v}`;
    case 'battery': return `${plural ? 'run' : 'runs'} for ${v} on a charge`;
    case 'rating': return `${be} rated ${v}`;
    case 'power': return `${be} rated at ${v}`;
    case 'brightness': return `${plural ? 'give' : 'gives'} ${v}`;
    case 'warranty': return `${plural ? 'come' : 'comes'} with a ${v}`;
    case 'cold': return `${plural ? 'keep' : 'keeps'} drinks cold for ${v}`;
    case 'hot': return `${plural ? 'keep' : 'keeps'} drinks hot for ${v}`;
    case 'parts': return `${plural ? 'have' : 'has'} ${v}`;
  }
}

/** Options whose values name a look (a colourway, a print), not what the product is made of. */
const LOOK_OPTION = /colou?r|pattern|print|design|style|finish|shade/i;
/** A brand or print name: capitalised words before a trademark sign ("Mossy Oak®", "Prismatic™"). */
const TRADEMARKED = /(?:\p{Lu}[\p{L}'-]* +){0,3}\p{Lu}[\p{L}'-]* ?[®™]/gu;

/**
 * Names in a product's text that only look like a material: a colourway or print value of
 * more than one word that holds a material word ("Mossy Oak Country DNA", "Rose Quartz"), a
 * trademarked name, the brand. A value that is only a material ("Stainless Steel") stays: it
 * says what the product is made of.
 */
function lookNames(product: CatalogProduct): string[] {
  const values = (product.optionNames ?? []).flatMap((name, d) =>
    LOOK_OPTION.test(name) ? (product.variants ?? []).map((v) => v.options[d] ?? '') : [],
  );
  const prints = [...new Set(values)].filter((v) => v.trim().split(/\s+/).length > 1 && materialsIn(v).length > 0 && materialsIn(v).join(' ') !== v.trim().toLowerCase());
  const text = `${product.name}\n${product.description}`;
  // A trademarked name is the same name where the sign is left off ("Mossy Oak®" in the text, "Mossy Oak" in the title).
  const marked = [...text.matchAll(TRADEMARKED)].flatMap((m) => [m[0], m[0].replace(/\s*[®™]$/, '')]);
  return [...prints, ...marked, ...(product.vendor.trim() ? [product.vendor.trim()] : [])];
}

/**
 * `attributesOf` for a catalogue product: its name, description and option names, with the
 * names that only look like a material left out (a camouflage print called "Mossy Oak" makes
 * no jar of oak; issue 45).
 */
export function productAttributes(product: CatalogProduct): Map<AttributeKey, Attribute> {
  const looks = lookNames(product).sort((a, b) => b.length - a.length);
  const blank = (text: string) => looks.reduce((t, look) => t.replace(new RegExp(`(?<![\\p{L}])${escapeRegExp(look)}(?![\\p{L}])`, 'giu'), ' '), text);
  return attributesOf(blank(product.description), blank(product.name).replace(/\s+/g, ' ').trim(), product.optionNames ?? []);
}
