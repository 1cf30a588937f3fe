/**
 * Issue 45, the labelled set's untrue pages, each as the shared catalogues state it: a family
 * page that leaves out a member or joins two models, members told apart by nothing or by a sale
 * word, and facts read from the wrong place (a part's size, a package count, another product's
 * material, a marketing figure over the spec table, a name and a table that disagree).
 */
import { familyLead } from '../../../functions/core/articles/leads';
import { productFamilies } from '../../../functions/core/articles/families';
import { ownSentences } from '../../../functions/core/articles/facts';
import { needById, needFits, needMatch, needRuledOut } from '../../../functions/core/articles/needs';
import { productAttributes } from '../../../functions/core/products/attributes';
import type { CatalogProduct } from '../../../functions/core/site/types';

let nextId = 0;
function product(name: string, description = 'A product.', extra: Partial<CatalogProduct> = {}): CatalogProduct {
  nextId++;
  return {
    productId: `p${nextId}`, name, url: `https://shop.example/products/p${nextId}`, description, productType: 'Thing', vendor: 'Maker',
    tags: [], price: '10.00', compareAtPrice: null, currency: 'USD', available: true, imageUrls: [], updatedAt: null, ...extra,
  };
}

const attributes = (p: CatalogProduct) => Object.fromEntries([...productAttributes(p)].map(([k, a]) => [k, a.value]));

describe('a family page says how many there are only when none is left out', () => {
  it('the plain tumbler beside its designs: the designs are no complete family', () => {
    const text = 'Double-wall vacuum insulation keeps drinks cold for 11 hours. Fits most cup holders.';
    const designs = ['Midnight Glitz', 'New Frequency', 'Lunar New Year'].map((d) => product(`The ${d} Quencher H2.O FlowState™ Tumbler | 30 OZ`, text));
    const plain = product('The Quencher H2.0 FlowState™ Tumbler | 40 OZ', 'Our most popular tumbler, with a handle and a straw.');
    const { of } = productFamilies([...designs, plain]);
    expect(of.get(designs[0]!.productId)?.members).toHaveLength(3);
    expect(of.get(designs[0]!.productId)?.complete).toBe(false);
  });

  it('a colourway whose name drops the last word still counts: two colours of three make no page', () => {
    const apple = product('New Netty Betty Long Sheer | Apple');
    const emerald = product('New Netty Betty Long Sheer Top | Emerald');
    const orchid = product('New Netty Betty Long Sheer Top | Raspberry Orchid');
    const { of } = productFamilies([apple, emerald, orchid]);
    expect(of.get(emerald.productId)?.members.map((m) => m.name)).toEqual([emerald.name, orchid.name]);
    expect(of.get(emerald.productId)?.complete).toBe(false);
  });

  it('a family with nothing beside it is complete, and a travel version that is a family of its own leaves it so', () => {
    const mats = ['Aegean Green', 'Earth Green'].map((c) => product(`Combo Yoga Mat - ${c}`));
    const travel = ['Aegean Green', 'Earth Green'].map((c) => product(`Travel Combo Yoga Mat - ${c}`));
    const { of } = productFamilies([...mats, ...travel]);
    expect(of.get(mats[0]!.productId)?.complete).toBe(true);
    expect(of.get(travel[0]!.productId)?.complete).toBe(true);
  });

  it('two model series are two products, not two colours of one', () => {
    const v1s = product('V1SC: Pop Up Power Outlet Silver');
    const v1b = product('V1BC: Pop Up Power Outlet Black');
    const v2 = product('V2GSB: Glossy Silver Pop Up Power Outlet');
    const { of } = productFamilies([v2, v1s, v1b]);
    expect(of.get(v1s.productId)?.members.map((m) => m.productId)).toEqual([v1s.productId, v1b.productId]);
    expect(of.get(v2.productId)).toBeUndefined();
  });
});

describe('a family lead names each member by what sets it apart', () => {
  it('no lead when one listing bears the family name alone', () => {
    expect(familyLead('New Jersey Knit Dress', 'versions', [product('New Jersey Knit Dress  - Organic cotton'), product('New Jersey Knit Dress')])).toBeNull();
  });

  it('a sale word is no colour; an open box is said as a condition', () => {
    const members = ['Royal Burgundy', '- Black', 'Tan Open Box Clearance'].map((c) => product(`Bowers & Wilkins PX8 Noise Cancelling Headphones ${c}`));
    expect(familyLead('Bowers & Wilkins PX8 Noise Cancelling Headphones', 'colors', members)?.text)
      .toBe('The Bowers & Wilkins PX8 Noise Cancelling Headphones come in three colors: Royal Burgundy, Black and Tan (open box)');
  });

  it('lengths keep their unit', () => {
    const strips = [product('Lightpro 12V LED Strip - 5 mtrs'), product('Lightpro 12V LED Strip - 15 mtrs')];
    const family = productFamilies(strips).of.get(strips[0]!.productId)!;
    expect(family.differs).toBe('sizes');
    expect(familyLead(family.name, family.differs, family.members)?.text).toBe('The Lightpro 12V LED Strip comes in two sizes: 5 mtrs and 15 mtrs');
  });
});

describe('facts read from the right place', () => {
  it('a composition with its shares is the material, over a fabric named elsewhere', () => {
    const dress = product('New Jersey Knit Dress', 'Organic Cotton + Lycra Comfy knit dress/top.\nAvailable in: Main photo: Spruce + Silver Leopard (Prato, Italy) - 60 cotton, 27 viscose, 10 metallic, 3 lycra\nBlack + Navy Organic cotton + lycra');
    expect(attributes(dress).material).toBe('60% cotton, 27% viscose, 10% metallic and 3% lycra');
  });

  it('a row of the spec table wins over the marketing figure', () => {
    const sony = product('Sony WHCH520W Wireless Headphones White', 'With up to 50 hours of playtime on a single charge.\n\nTechnical Specifications\n\nFeatures\n\nPassive noise-isolating 35 hours battery life Comfortable, lightweight design\n\nWeight\n\n0.15 kg');
    expect(attributes(sony)).toMatchObject({ battery: '35 hours', weight: '0.15 kg' });
  });

  it('a size the name and the table disagree on is said by neither', () => {
    const shed = product('8 x 4 Woodsman Shiplap Apex Wooden Shed', 'Made from sustainably sourced timber.\nImperial Size (ft)\n4 x 6\nMetric Size (Meters)\n1.3 x 2.5');
    const right = product('10 x 8 Woodsman Shiplap Apex Wooden Shed', 'Made from sustainably sourced timber.\nImperial Size (ft)\n10 x 8');
    expect(attributes(shed).dimensions).toBeUndefined();
    expect(attributes(right).dimensions).toBe('10 x 8');
  });

  it('a part\'s size, thickness and material are not the product\'s', () => {
    const oven = product('Alfresco Chef Naples Wood Fired Outdoor Pizza Oven', 'Spacious 60cm x 55cm cooking floor size.\nIt is built with 5cm ceramic fibre insulation and 3cm thick fire brick floor tiles. Comes with a 3-year warranty.');
    expect(attributes(oven)).toEqual({ warranty: '3-year warranty' });
  });

  it('a package count is no size; another product\'s material is not this one\'s', () => {
    const saw = product('102mm Hole Saw Made for Point Pod', 'Package Includes 1 x 4" 102mm Hole Saw. Material: High-Speed Steel (HSS) / Bi-Metal.');
    expect(attributes(saw).dimensions).toBeUndefined();
    const outlet = product('V7GSW: Glossy Silver Top, White, Pop Up Power Outlet', 'A stylish silver plastic top. For a stainless steel option, explore the V7BSSB.');
    expect(attributes(outlet).material).toBeUndefined();
  });

  it('a table\'s material row wins over a lens named three times; a toast is no material', () => {
    const light = product('Lightpro 12V Onyx 30 RA IP67 Decking Light', 'Equipped with standard milky glass, this decklight also offers the option to switch to clear glass.\n\n• Standard includes matt glass\n\nConstruction\n\nStainless Steel');
    expect(attributes(light).material).toBe('stainless steel');
    const stein = product('Adventure Big Grip Beer Stein | 24 OZ', 'Raise a glass to fun with this durable stainless steel beer vessel.');
    expect(attributes(stein).material).toBe('stainless steel');
  });

  it('a lid sold for a 40 oz tumbler holds nothing; the tumbler with a handle still holds its 20 oz', () => {
    expect(attributes(product('The Quencher H2.O FlowState™ Tumbler Lid | 40 OZ', 'Replace your 40 oz tumbler lid.')).capacity).toBeUndefined();
    expect(attributes(product('The Quencher H2.O FlowState™ Tumbler with Handle | 20 OZ', 'A tumbler for water.')).capacity).toBe('20 oz');
  });
});

describe('a need the text rules out is not asked', () => {
  it('a "Waterproof" outlet that is not suitable for outdoor use is not asked about wet weather', () => {
    const wet = needById('wet-weather')!;
    expect(needRuledOut(wet, ['The V5WUB Waterproof Pop-Up Power Point has a rubber seal around its top.', 'It is not suitable for outdoor use and it isn\'t water-sealed when raised.'])).toBe(true);
    expect(needRuledOut(wet, ['Rated IP67, it is waterproof and made for the garden.'])).toBe(false);
  });

  it('a spill-resistant countertop socket is not asked about wet weather or leaks; noise-cancelling headphones not about blocking noise', () => {
    const wet = needById('wet-weather')!;
    expect(needMatch('These Pop-Up Receptacles are water-resistant, tested to withstand spills of up to half a gallon.', wet)).toBeNull();
    expect(needMatch('A weatherproof light for the garden.', wet)).not.toBeNull();
    expect(needFits(needById('leaks')!, 'Hubbell Tri-Power Countertop Pop Up Receptacle Outlet')).toBe(false);
    expect(needFits(needById('leaks')!, 'IceFlow Bottle Bottle')).toBe(true);
    expect(needFits(needById('noise')!, 'Bowers & Wilkins PX8 Noise Cancelling Headphones - Black Headphones')).toBe(false);
  });
});

describe('a sentence about another model is not this product\'s', () => {
  it('the white V15\'s line on the black V15\'s page is left out; the product\'s own longer code stays', () => {
    const black = product('V15: Quad-Sided Black Pop Up Outlet with USB and Qi', '', { variants: [{ id: '1', title: 'Default', options: ['Default'], price: '10.00', compareAtPrice: null, available: true, sku: 'V15PWUB-US', gtin: null }] });
    expect(ownSentences(['A quad-sided outlet for benchtops.', 'V15PWUW-US in White Color: Four 110V U.S. sockets plus four USB ports.', 'The V15PWUB-US is rated 15 A.'], black, 'Outlet'))
      .toEqual(['A quad-sided outlet for benchtops.', 'The V15PWUB-US is rated 15 A.']);
    const sony = product('Sony WHCH520W Wireless Headphones White');
    expect(ownSentences(['Sony WHCH520WCE7 Wireless Headphones White, rated IPX4.'], sony, 'Headphones')).toHaveLength(1);
  });

  it('drivers and voice coils are parts: no "measures 40 mm", no copper headphones', () => {
    const headphones = product('Audio Technica ATHM20XBT Wireless Over-Ear Headphones White', '40 mm drivers with rare earth magnets and copper-clad aluminum wire voice coils. Professional-grade earpad material for long-lasting durability. Weight Approx. 216 g.');
    expect(attributes(headphones)).toMatchObject({ weight: '216 g' });
    expect(attributes(headphones).length).toBeUndefined();
    expect(attributes(headphones).material).toBeUndefined();
  });
});
