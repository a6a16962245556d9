/**
 * Statement PDF text cost (issue 22, finding 12; record 149): renders the statement's table layout (a title
 * block and three sections of `rows` rows: stores, countries, tracks) the way statement-pdf.ts did before
 * (pdfkit's standard Helvetica, which garbles anything outside Latin-1) and the way it does now (embedded
 * Noto Sans / Noto Sans Arabic / Hebrew / UnifontEX, one font per run, bidi), with Latin titles and with
 * mixed-script titles. Prints the one-time font load, the milliseconds per statement (median of `runs`
 * after one warm-up) and the PDF's size. Prints figures; it is not a test.
 *   node --import tsx bench/statement-pdf.ts [rows=200] [runs=5]
 */
import PDFDocument from 'pdfkit';
import { drawLine, registerStatementFonts } from '../apps/server/src/modules/statements/statement-text';

const rowCount = Number(process.argv[2] ?? 200);
const runs = Number(process.argv[3] ?? 5);

const MIXED = [
  'Café Déjà Vu',
  'Звезда',
  'Ωμέγα',
  'سلام عليكم',
  'שלום עולם',
  'नमस्ते',
  '夜の音楽',
  '🎵 Dance 🔥',
];
const latinRows = Array.from(
  { length: rowCount },
  (_, i) => `Track number ${i} (QZAN1260${String(i).padStart(4, '0')})`,
);
const mixedRows = latinRows.map((row, i) => (i % 2 === 0 ? `${MIXED[i % MIXED.length]} ${row}` : row));

type Render = (doc: PDFKit.PDFDocument, rows: string[]) => void;

const helvetica: Render = (doc, rows) => {
  const left = 50;
  const width = doc.page.width - 100;
  doc.font('Helvetica-Bold').fontSize(20).text('Tunedrop royalty statement');
  doc.moveDown(0.3).font('Helvetica').fontSize(11).text('Period: 2026-01').text('Artist: Someone');
  for (const title of ['By store', 'By country', 'By track']) {
    doc.moveDown(1).font('Helvetica-Bold').fontSize(12).text(title, left);
    doc.moveDown(0.2).fontSize(9).font('Helvetica');
    for (const row of rows) {
      if (doc.y > doc.page.height - 70) doc.addPage();
      const y = doc.y;
      doc.text(row, left, y, { width: width * 0.6, lineBreak: false, ellipsis: true });
      doc.text('1000', left + width * 0.6, y, { width: width * 0.18, align: 'right' });
      doc.text('$1,234.56', left + width * 0.78, y, { width: width * 0.22, align: 'right' });
    }
  }
};

const embedded: Render = (doc, rows) => {
  registerStatementFonts(doc);
  const left = 50;
  const width = doc.page.width - 100;
  const line = (text: string, size: number, weight: 'regular' | 'bold' = 'regular') =>
    drawLine(doc, text, left, doc.y, { width, size, weight });
  line('Tunedrop royalty statement', 20, 'bold');
  line('Period: 2026-01', 11);
  line('Artist: Someone', 11);
  for (const title of ['By store', 'By country', 'By track']) {
    doc.moveDown(1);
    line(title, 12, 'bold');
    for (const row of rows) {
      if (doc.y > doc.page.height - 70) doc.addPage();
      const y = doc.y;
      drawLine(doc, row, left, y, { width: width * 0.6 - 8, size: 9 });
      drawLine(doc, '1000', left + width * 0.6, y, { width: width * 0.18, size: 9, align: 'right' });
      drawLine(doc, '$1,234.56', left + width * 0.78, y, { width: width * 0.22, size: 9, align: 'right' });
    }
  }
};

async function once(render: Render, rows: string[]): Promise<{ ms: number; bytes: number }> {
  const started = performance.now();
  const doc = new PDFDocument({ size: 'A4', margin: 50 });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  render(doc, rows);
  doc.end();
  await done;
  return { ms: performance.now() - started, bytes: Buffer.concat(chunks).length };
}

async function measure(name: string, render: Render, rows: string[]) {
  const first = await once(render, rows);
  const times: number[] = [];
  let bytes = first.bytes;
  for (let run = 0; run < runs; run += 1) {
    const result = await once(render, rows);
    times.push(result.ms);
    bytes = result.bytes;
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] ?? 0;
  console.info(
    `${name.padEnd(34)} first ${first.ms.toFixed(0).padStart(5)} ms   median ${median.toFixed(0).padStart(5)} ms   ${(bytes / 1024).toFixed(1).padStart(7)} KiB`,
  );
}

console.info(`statement layout: 3 sections × ${rowCount} rows, ${runs} runs after a warm-up\n`);
await measure('Helvetica (before), Latin titles', helvetica, latinRows);
await measure('embedded fonts, Latin titles', embedded, latinRows);
await measure('Helvetica (before), mixed titles', helvetica, mixedRows);
await measure('embedded fonts, mixed titles', embedded, mixedRows);
console.info(
  '\n"first" of the first embedded run includes reading and unwrapping the font files (once per process).',
);
