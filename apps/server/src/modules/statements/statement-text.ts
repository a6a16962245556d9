/**
 * Text of any script in statement PDFs (issue 22, finding 12; record 149). Titles, artist and store names come
 * from people and from sales reports, so they may be in any script or hold emoji and invisible characters.
 * Every line is cleaned, split into runs that each use the first embedded font that has their characters,
 * put in visual order by the Unicode bidirectional algorithm, and drawn on exactly one line.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';
import bidiFactory from 'bidi-js';
import * as fontkit from 'fontkit';

type Pdf = PDFKit.PDFDocument;

/**
 * The fallback chain, first match wins: Noto Sans (Latin, Vietnamese, Greek, Cyrillic, Devanagari), Noto Sans
 * Arabic, Noto Sans Hebrew, then UnifontEX, which has a glyph for every assigned code point of the BMP and
 * the emoji of plane 1 (CJK, Thai, emoji… in its 16-pixel design). fontsource ships each face as files per
 * Unicode subset; each file is one font here.
 */
const FACES: { pkg: string; file: string; subsets: string[]; hasBold: boolean }[] = [
  {
    pkg: '@fontsource/noto-sans',
    file: 'noto-sans',
    subsets: [
      'latin',
      'latin-ext',
      'vietnamese',
      'greek',
      'greek-ext',
      'cyrillic',
      'cyrillic-ext',
      'devanagari',
    ],
    hasBold: true,
  },
  { pkg: '@fontsource/noto-sans-arabic', file: 'noto-sans-arabic', subsets: ['arabic'], hasBold: true },
  { pkg: '@fontsource/noto-sans-hebrew', file: 'noto-sans-hebrew', subsets: ['hebrew'], hasBold: true },
  { pkg: '@fontsource/unifontex', file: 'unifontex', subsets: ['latin'], hasBold: false },
];

export type TextWeight = 'regular' | 'bold';

type ChainFont = { name: string; font: fontkit.Font };

/** A chain's first font (every chain has one: Noto Sans). */
function primaryOf(chain: ChainFont[]): ChainFont {
  const [first] = chain;
  if (!first) throw new Error('a font chain is empty');
  return first;
}

/**
 * WOFF 1.0 → the TrueType/OpenType file it wraps (W3C WOFF §4-5). fontkit reads WOFF, but it inflates the whole
 * `glyf` table again for every glyph it reads: UnifontEX's (several MB) would cost tens of milliseconds per
 * character. Unwrapped once, every read is a slice of memory.
 */
export function woffToSfnt(woff: Buffer): Buffer {
  if (woff.readUInt32BE(0) !== 0x774f4646) throw new Error('not a WOFF 1.0 font');
  const flavor = woff.readUInt32BE(4);
  const count = woff.readUInt16BE(12);
  const tables = Array.from({ length: count }, (_, index) => {
    const at = 44 + index * 20;
    const offset = woff.readUInt32BE(at + 4);
    const compressed = woff.readUInt32BE(at + 8);
    const length = woff.readUInt32BE(at + 12);
    const raw = woff.subarray(offset, offset + compressed);
    return {
      tag: woff.readUInt32BE(at),
      checksum: woff.readUInt32BE(at + 16),
      data: compressed < length ? inflateSync(raw) : raw,
    };
  });
  const power = 2 ** Math.floor(Math.log2(count));
  const header = Buffer.alloc(12 + 16 * count);
  header.writeUInt32BE(flavor, 0);
  header.writeUInt16BE(count, 4);
  header.writeUInt16BE(power * 16, 6);
  header.writeUInt16BE(Math.log2(power), 8);
  header.writeUInt16BE(count * 16 - power * 16, 10);
  const parts: Buffer[] = [header];
  let offset = header.length;
  tables.forEach((table, index) => {
    header.writeUInt32BE(table.tag, 12 + index * 16);
    header.writeUInt32BE(table.checksum, 16 + index * 16);
    header.writeUInt32BE(offset, 20 + index * 16);
    header.writeUInt32BE(table.data.length, 24 + index * 16);
    const padding = (4 - (table.data.length % 4)) % 4;
    parts.push(table.data, Buffer.alloc(padding));
    offset += table.data.length + padding;
  });
  return Buffer.concat(parts);
}

let chains: Record<TextWeight, ChainFont[]> | null = null;

/** Both fallback chains, read from node_modules on the first statement and kept for the process's life. */
function fontChains(): Record<TextWeight, ChainFont[]> {
  if (chains) return chains;
  const require = createRequire(import.meta.url);
  const load = (name: string, file: string): ChainFont => {
    return { name, font: fontkit.create(woffToSfnt(fs.readFileSync(require.resolve(file)))) as fontkit.Font };
  };
  const build = (weight: TextWeight) =>
    FACES.flatMap((face) =>
      face.subsets.map((subset) => {
        const file = `${face.pkg}/files/${face.file}-${subset}-${weight === 'bold' && face.hasBold ? 700 : 400}-normal.woff`;
        return load(`${face.file}-${subset}-${weight === 'bold' && face.hasBold ? 'bold' : 'regular'}`, file);
      }),
    );
  const regular = build('regular');
  // A face without a bold file (UnifontEX) is the same font in both chains: loaded once.
  const byName = new Map(regular.map((font) => [font.name, font]));
  const bold = build('bold').map((font) => byName.get(font.name) ?? font);
  chains = { regular, bold };
  return chains;
}

// Line breaks, tabs and separators become a space (one row stays one line); other C0/C1 controls, explicit
// bidi controls (embeddings, overrides, isolates, marks), the byte order mark and interlinear annotation
// characters are dropped: the bidi algorithm below orders the text, never a character hidden in a title.
const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]+/g;
const INVISIBLE = /[\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\uFEFF\uFFF9-\uFFFB]/gu;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The text as it may be laid out: one line, no control or separator character, composed (NFC). */
export function cleanPdfText(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD').replace(BREAKS, ' ').replace(INVISIBLE, '').normalize('NFC');
}

// Characters a font need not have for a cluster to be its: joiners and variation selectors are invisible.
const IGNORABLE = new Set([0x200c, 0x200d, 0xfe0e, 0xfe0f]);
// Scripts fontkit lays out right to left (it reverses their glyphs itself).
const RTL_SCRIPT = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;
const SPACE = /^\s$/u;

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const bidi = bidiFactory();

type Run = { text: string; font: ChainFont };

/** Which font of the chain draws a cluster: the first with all its characters, else the first with its base. */
function fontIndexFor(chain: ChainFont[], cluster: string, previous: number | null): number {
  const points = [...cluster]
    .map((char) => char.codePointAt(0) ?? 0)
    .filter((point) => !IGNORABLE.has(point));
  const has = (index: number) => points.every((point) => chain[index]?.font.hasGlyphForCodePoint(point));
  // Spaces, digits and punctuation stay in the run they are in when its font has them, unless that is the
  // last resort: after a CJK word or an emoji, " (" reads better in Noto Sans than in 16-pixel monospace.
  const isSticky = previous !== null && previous < chain.length - 1;
  if (isSticky && !/\p{L}|\p{Extended_Pictographic}/u.test(cluster) && has(previous)) return previous;
  for (let index = 0; index < chain.length; index += 1) if (has(index)) return index;
  const base = points[0] ?? 0x20;
  const withBase = chain.findIndex((entry) => entry.font.hasGlyphForCodePoint(base));
  return withBase >= 0 ? withBase : chain.length - 1;
}

/**
 * Runs to draw left to right: clusters in visual order, grouped by font; right-to-left words are handed over in
 * logical order, one word a run, because fontkit shapes and reverses them itself.
 */
export function visualRuns(text: string, weight: TextWeight): Run[] {
  const clean = cleanPdfText(text);
  if (clean === '') return [];
  const chain = fontChains()[weight];
  // Most titles are plain ASCII: one left-to-right run in the first font, no segmenting or bidi needed.
  if (/^[\x20-\x7E]*$/.test(clean)) return [{ text: clean, font: primaryOf(chain) }];
  const clusters: { text: string; font: number; isRtl: boolean }[] = [];
  const clusterAt = new Int32Array(clean.length);
  let previous: number | null = null;
  for (const { segment, index } of segmenter.segment(clean)) {
    clusterAt.fill(clusters.length, index, index + segment.length);
    previous = fontIndexFor(chain, segment, previous);
    clusters.push({ text: segment, font: previous, isRtl: false });
  }
  const levels = bidi.getEmbeddingLevels(clean, 'auto');
  const mirrored = bidi.getMirroredCharactersMap(clean, levels.levels);
  const order: number[] = [];
  let last = -1;
  for (const unit of bidi.getReorderedIndices(clean, levels)) {
    const cluster = clusterAt[unit] ?? 0;
    if (cluster === last) continue;
    last = cluster;
    const entry = clusters[cluster];
    if (!entry) continue;
    entry.isRtl = (levels.levels[unit] ?? 0) % 2 === 1;
    const mirror = mirrored.get(unit);
    if (mirror && entry.text.length === 1) entry.text = mirror;
    order.push(cluster);
  }
  const runs: { clusters: string[]; font: number; isRtl: boolean }[] = [];
  for (const index of order) {
    const cluster = clusters[index];
    if (!cluster) continue;
    const current = runs.at(-1);
    const isSpace = SPACE.test(cluster.text);
    const joins =
      current &&
      current.font === cluster.font &&
      current.isRtl === cluster.isRtl &&
      // A right-to-left run breaks at spaces: pdfkit lays out words in the order it is given them.
      !(cluster.isRtl && (isSpace || SPACE.test(current.clusters.at(-1) ?? '')));
    if (joins) current.clusters.push(cluster.text);
    else runs.push({ clusters: [cluster.text], font: cluster.font, isRtl: cluster.isRtl });
  }
  return runs.map((run) => {
    const visual = run.clusters.join('');
    // fontkit reverses a word of a right-to-left script: give it the word in reading order.
    const text = run.isRtl && RTL_SCRIPT.test(visual) ? [...run.clusters].reverse().join('') : visual;
    return { text, font: chain[run.font] ?? primaryOf(chain) };
  });
}

/** Registers the fonts with a new document (pdfkit embeds only those it draws with, as subsets). */
export function registerStatementFonts(doc: Pdf): void {
  const { regular, bold } = fontChains();
  for (const font of new Set([...regular, ...bold])) {
    // pdfkit takes a fontkit font as well as bytes (its types say bytes only). Sharing the parsed font across
    // documents keeps its parsed layout tables: parsing them again cost about 250 ms per statement.
    doc.registerFont(font.name, font.font as unknown as Buffer);
  }
}

/** The name of the first font of a chain, for paragraphs of our own (Latin) text. */
export function textFontName(weight: TextWeight): string {
  return primaryOf(fontChains()[weight]).name;
}

type LineOptions = { width: number; size: number; weight?: TextWeight; align?: 'left' | 'right' };

function measure(doc: Pdf, runs: Run[], size: number): number {
  let width = 0;
  for (const run of runs) width += doc.font(run.font.name).fontSize(size).widthOfString(run.text);
  return width;
}

/** Runs of `text` that fit `width`, cut at a cluster with an ellipsis when the whole does not. */
function fittedRuns(doc: Pdf, text: string, options: LineOptions): Run[] {
  const weight = options.weight ?? 'regular';
  const whole = visualRuns(text, weight);
  if (measure(doc, whole, options.size) <= options.width) return whole;
  const clusters = [...segmenter.segment(cleanPdfText(text))].map((part) => part.segment);
  let low = 0;
  let high = clusters.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    const runs = visualRuns(`${clusters.slice(0, middle).join('').trimEnd()}…`, weight);
    if (measure(doc, runs, options.size) <= options.width) low = middle;
    else high = middle - 1;
  }
  return visualRuns(`${clusters.slice(0, low).join('').trimEnd()}…`, weight);
}

/**
 * Draws `text` on one line at (x, y), within `width` (cut with an ellipsis when longer), and moves the cursor
 * below it.
 */
export function drawLine(doc: Pdf, text: string, x: number, y: number, options: LineOptions): void {
  const runs = fittedRuns(doc, text, options);
  const width = measure(doc, runs, options.size);
  let left = options.align === 'right' ? x + options.width - width : x;
  // Every run sits on the first font's baseline: fonts differ in ascent (Arabic's is far taller), and pdfkit
  // would otherwise hang each run from the top of its own font.
  const primary = primaryOf(fontChains()[options.weight ?? 'regular']);
  const baseline = y + (primary.font.ascent / primary.font.unitsPerEm) * options.size;
  for (const run of runs) {
    doc.font(run.font.name).fontSize(options.size).text(run.text, left, baseline, {
      lineBreak: false,
      baseline: 'alphabetic',
    });
    left += doc.widthOfString(run.text);
  }
  doc.x = x;
  doc.y = y + doc.font(primary.name).fontSize(options.size).currentLineHeight(true);
}
