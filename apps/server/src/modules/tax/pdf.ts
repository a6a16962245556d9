/**
 * Tax documents as PDF (issue 38): a signed form, a recipient's year-end statement, a self-billing invoice.
 * pdfkit with the statements' embedded fonts (any script in a name); one simple layout: a title, labelled
 * lines, then paragraphs. The creation date is the document's own date, so the bytes depend on the content.
 */
import { drawLine, registerStatementFonts, textFontName } from '../statements';

export type PdfBlock =
  | { kind: 'title'; text: string }
  | { kind: 'heading'; text: string }
  | { kind: 'field'; label: string; value: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'row'; cells: string[] };

export async function renderPdf(input: {
  title: string;
  author: string;
  date: Date;
  blocks: PdfBlock[];
}): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { Title: input.title, Author: input.author, CreationDate: input.date, ModDate: input.date },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  registerStatementFonts(doc);
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const room = (height: number) => {
    if (doc.y > doc.page.height - doc.page.margins.bottom - height) doc.addPage();
  };
  for (const block of input.blocks) {
    switch (block.kind) {
      case 'title':
        drawLine(doc, block.text, left, doc.y, { width, size: 15, weight: 'bold' });
        doc.moveDown(0.4);
        break;
      case 'heading':
        room(40);
        doc.moveDown(0.6);
        drawLine(doc, block.text, left, doc.y, { width, size: 11, weight: 'bold' });
        doc.moveDown(0.2);
        break;
      case 'field': {
        room(20);
        const y = doc.y;
        drawLine(doc, block.label, left, y, { width: width * 0.38 - 6, size: 9, weight: 'bold' });
        drawLine(doc, block.value, left + width * 0.38, y, { width: width * 0.62, size: 9 });
        break;
      }
      case 'row': {
        room(20);
        const y = doc.y;
        const cell = width / block.cells.length;
        for (const [index, text] of block.cells.entries()) {
          drawLine(doc, text, left + index * cell, y, {
            width: cell - 6,
            size: 8,
            align: index === 0 ? 'left' : 'right',
          });
        }
        break;
      }
      case 'paragraph':
        room(40);
        doc.moveDown(0.3);
        doc
          .font(textFontName('regular'))
          .fontSize(8.5)
          .fillColor('#000000')
          .text(block.text, left, doc.y, { width });
        break;
    }
  }
  doc.end();
  return done;
}
