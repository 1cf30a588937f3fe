/**
 * Static bytes the demo store serves: product image placeholders (real baseline JPEGs, so image
 * checks and content sniffing see a valid file), the favicon, and the theme's CSS/JS.
 * Everything is built in code: no binary fixtures in the repo and no image library needed.
 */

// ---------- JPEG: a solid-colour baseline JPEG, encoded by hand ----------

/** Canonical Huffman codes from a DHT-style (bits, values) pair, per JPEG Annex C. */
function huffmanCodes(bits: number[], values: number[]): Map<number, { code: number; length: number }> {
  const codes = new Map<number, { code: number; length: number }>();
  let code = 0;
  let k = 0;
  for (let length = 1; length <= 16; length++) {
    for (let i = 0; i < bits[length - 1]; i++) codes.set(values[k++], { code: code++, length });
    code <<= 1;
  }
  return codes;
}

// The standard luminance DC table (Annex K.3); the AC table only needs EOB, since a solid block
// has no AC energy.
const DC_BITS = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0];
const DC_VALUES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const AC_BITS = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
const AC_VALUES = [0x00];
const DC_CODES = huffmanCodes(DC_BITS, DC_VALUES);
const EOB = huffmanCodes(AC_BITS, AC_VALUES).get(0x00)!;

class BitWriter {
  private bytes: number[] = [];
  private acc = 0;
  private count = 0;
  write(value: number, length: number): void {
    for (let i = length - 1; i >= 0; i--) {
      this.acc = (this.acc << 1) | ((value >> i) & 1);
      if (++this.count === 8) this.flushByte();
    }
  }
  private flushByte(): void {
    this.bytes.push(this.acc);
    if (this.acc === 0xff) this.bytes.push(0x00); // byte stuffing
    this.acc = 0;
    this.count = 0;
  }
  finish(): number[] {
    while (this.count !== 0) this.write(1, 1); // pad with 1-bits
    return this.bytes;
  }
}

function segment(marker: number, body: number[]): number[] {
  const length = body.length + 2;
  return [0xff, marker, length >> 8, length & 0xff, ...body];
}

/** A `size`×`size` (multiple of 8) baseline JPEG of one colour, 4:4:4, all blocks DC-only. */
export function solidJpeg(r: number, g: number, b: number, size = 16): Buffer {
  const clamp = (v: number) => Math.max(0, Math.min(255, Math.round(v)));
  const ycc = [
    clamp(0.299 * r + 0.587 * g + 0.114 * b),
    clamp(128 - 0.168736 * r - 0.331264 * g + 0.5 * b),
    clamp(128 + 0.5 * r - 0.418688 * g - 0.081312 * b),
  ];
  // With a DC quantiser of 8 the quantised DC of a flat block equals (sample - 128).
  const dc = ycc.map((v) => v - 128);
  const writer = new BitWriter();
  const previous = [0, 0, 0];
  const mcus = (size / 8) * (size / 8);
  for (let m = 0; m < mcus; m++) {
    for (let c = 0; c < 3; c++) {
      const diff = dc[c] - previous[c];
      previous[c] = dc[c];
      const category = diff === 0 ? 0 : Math.floor(Math.log2(Math.abs(diff))) + 1;
      const { code, length } = DC_CODES.get(category)!;
      writer.write(code, length);
      if (category > 0) writer.write(diff > 0 ? diff : diff + (1 << category) - 1, category);
      writer.write(EOB.code, EOB.length);
    }
  }
  const bytes = [
    0xff, 0xd8, // SOI
    ...segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]), // JFIF
    ...segment(0xdb, [0x00, ...new Array<number>(64).fill(8)]), // one quant table, all 8
    ...segment(0xc0, [8, size >> 8, size & 0xff, size >> 8, size & 0xff, 3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0]),
    ...segment(0xc4, [0x00, ...DC_BITS, ...DC_VALUES]),
    ...segment(0xc4, [0x10, ...AC_BITS, ...AC_VALUES]),
    ...segment(0xda, [3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0]),
    ...writer.finish(),
    0xff, 0xd9, // EOI
  ];
  return Buffer.from(bytes);
}

/** A warm, on-brand tint per image name, so product images are not all identical bytes. */
const PALETTE: Array<[number, number, number]> = [
  [107, 74, 46], [62, 92, 78], [176, 132, 84], [44, 62, 80], [200, 170, 130], [120, 60, 40], [90, 110, 90], [150, 100, 70],
];
const jpegCache = new Map<number, Buffer>();
export function placeholderJpeg(name: string): Buffer {
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  const slot = hash % PALETTE.length;
  let jpeg = jpegCache.get(slot);
  if (!jpeg) {
    jpeg = solidJpeg(...PALETTE[slot]);
    jpegCache.set(slot, jpeg);
  }
  return jpeg;
}

// ---------- favicon.ico: one 16×16 32-bit BMP entry (a coffee bean) ----------

function buildFavicon(): Buffer {
  const size = 16;
  const pixels = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const dx = (x - 7.5) / 6.5;
      const dy = (y - 7.5) / 7.5;
      const inBean = dx * dx + dy * dy <= 1;
      const crease = Math.abs(x - 7.5 - Math.sin(y / 2.5) * 1.2) < 0.8 && y > 2 && y < 13;
      const row = size - 1 - y; // BMP rows are stored bottom-up
      const o = (row * size + x) * 4;
      if (!inBean) continue; // fully transparent
      const [r, g, b] = crease ? [235, 214, 180] : [107, 74, 46];
      pixels[o] = b;
      pixels[o + 1] = g;
      pixels[o + 2] = r;
      pixels[o + 3] = 255;
    }
  }
  const andMask = Buffer.alloc(size * 4); // 16 rows × 4 bytes (padded), all opaque: alpha decides
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0);
  header.writeInt32LE(size, 4);
  header.writeInt32LE(size * 2, 8); // ICO bitmaps declare double height (XOR + AND masks)
  header.writeUInt16LE(1, 12);
  header.writeUInt16LE(32, 14);
  header.writeUInt32LE(0, 16);
  header.writeUInt32LE(pixels.length + andMask.length, 20);
  const image = Buffer.concat([header, pixels, andMask]);
  const dir = Buffer.alloc(6 + 16);
  dir.writeUInt16LE(0, 0);
  dir.writeUInt16LE(1, 2); // type: icon
  dir.writeUInt16LE(1, 4); // one image
  dir.writeUInt8(size, 6);
  dir.writeUInt8(size, 7);
  dir.writeUInt8(0, 8);
  dir.writeUInt8(0, 9);
  dir.writeUInt16LE(1, 10);
  dir.writeUInt16LE(32, 12);
  dir.writeUInt32LE(image.length, 14);
  dir.writeUInt32LE(dir.length, 18);
  return Buffer.concat([dir, image]);
}

export const FAVICON_ICO = buildFavicon();

// ---------- theme assets (served from /cdn/shop/t/<theme>/assets/) ----------

export const THEME_CSS = `:root{--ink:#2b2118;--paper:#fbf7f1;--accent:#3e5c4e;--muted:#7a6a5a;--line:#e6dccf}
*{box-sizing:border-box}body{margin:0;font:16px/1.6 Georgia,"Times New Roman",serif;color:var(--ink);background:var(--paper)}
a{color:var(--accent)}img{max-width:100%;height:auto;display:block;background:#d9c7ad}
.announcement{background:var(--accent);color:#fff;text-align:center;font:13px/2.4 system-ui,sans-serif;letter-spacing:.04em}
.site-header{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;justify-content:space-between;padding:1rem 2rem;border-bottom:1px solid var(--line)}
.site-header .logo{font-size:1.4rem;font-weight:bold;text-decoration:none;color:var(--ink)}
.site-nav ul,.site-footer ul{list-style:none;margin:0;padding:0}.site-nav li{display:inline-block;margin-right:1.2rem}
.site-nav a,.site-footer a{text-decoration:none;font-family:system-ui,sans-serif;font-size:.95rem}
main{max-width:1100px;margin:0 auto;padding:2rem}
.hero{padding:3rem 0;border-bottom:1px solid var(--line)}.hero h1{font-size:2.4rem;margin:0 0 .5rem}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(210px,1fr));gap:1.5rem;list-style:none;padding:0}
.card a{text-decoration:none;color:inherit}.card h3{font-size:1rem;margin:.5rem 0 .2rem}
.price{font-family:system-ui,sans-serif;font-weight:600}.price s{color:var(--muted);font-weight:400;margin-left:.4rem}
.product{display:grid;grid-template-columns:1fr 1fr;gap:2.5rem}@media(max-width:760px){.product{grid-template-columns:1fr}}
.breadcrumbs{font:13px system-ui,sans-serif;color:var(--muted)}.breadcrumbs a{color:var(--muted)}
button,.button{background:var(--ink);color:#fff;border:0;padding:.8rem 1.6rem;font:600 15px system-ui,sans-serif;cursor:pointer}
details{border-bottom:1px solid var(--line);padding:.8rem 0}summary{font-weight:bold;cursor:pointer}
.pagination{display:flex;gap:1rem;justify-content:center;font-family:system-ui,sans-serif}
.site-footer{background:#efe6da;padding:2.5rem 2rem;display:grid;grid-template-columns:repeat(auto-fit,minmax(180px,1fr));gap:2rem;font-size:.95rem}
.site-footer h2{font-size:1rem;margin:0 0 .6rem}.site-footer .legal{grid-column:1/-1;color:var(--muted);font:13px system-ui,sans-serif}
`;

export const THEME_JS = `(function(){document.documentElement.classList.add('js');var f=document.querySelectorAll('form[data-cart]');for(var i=0;i<f.length;i++){f[i].addEventListener('submit',function(){this.classList.add('loading')})}})();\n`;
