/**
 * The one XML writer of the app (issue 23, record 164): every message and manifest is a tree of `el()`
 * nodes serialized by xmlbuilder2, which escapes text and attribute values. Characters XML 1.0 cannot
 * carry at all (control characters, lone surrogates, U+FFFE, U+FFFF) are dropped, never written.
 */
import { create } from 'xmlbuilder2';

export type XmlAttrs = Record<string, string | number | boolean>;
export type XmlChild = XmlElement | string | number | null | undefined | false;

export class XmlElement {
  constructor(
    readonly name: string,
    readonly attrs: XmlAttrs,
    public children: XmlChild[],
  ) {}
}

const isAttrs = (value: XmlAttrs | XmlChild): value is XmlAttrs =>
  typeof value === 'object' && value !== null && !(value instanceof XmlElement);

/** `el('Name', { Attr: 1 }, child, ...)` or `el('Name', child, ...)`; null, undefined and false are left out. */
export function el(name: string, attrsOrChild?: XmlAttrs | XmlChild, ...children: XmlChild[]): XmlElement {
  if (isAttrs(attrsOrChild)) return new XmlElement(name, attrsOrChild, children);
  return new XmlElement(name, {}, [attrsOrChild, ...children]);
}

type Builder = ReturnType<typeof create>;

function append(parent: Builder, node: XmlElement): void {
  // A parser turns a tab or line break inside an attribute into a space: write it as one.
  const attrs = Object.fromEntries(
    Object.entries(node.attrs).map(([key, value]) => [key, String(value).replace(/[\t\n\r]/g, ' ')]),
  );
  const element = parent.ele(node.name, attrs);
  for (const child of node.children) {
    if (child === null || child === undefined || child === false) continue;
    if (child instanceof XmlElement) append(element, child);
    else element.txt(String(child));
  }
}

/** The document: XML declaration, `root` indented, a final line break. */
export function renderXml(root: XmlElement): string {
  const doc = create({ version: '1.0', encoding: 'UTF-8', invalidCharReplacement: '' });
  append(doc, root);
  return `${doc.end({ prettyPrint: true })}\n`;
}
