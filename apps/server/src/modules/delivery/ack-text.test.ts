/**
 * Decoding of acknowledgement files (record 226): a UTF-8 file whose declaration says UTF-16 (a copy that
 * kept it, or a file cut short) is read as the UTF-8 it is, so the admin sees its text and why it was
 * refused, not characters made of byte pairs.
 */
import { describe, expect, it } from 'vitest';
import { decodeAck } from './ack-text';

const XML = '<?xml version="1.0" encoding="UTF-16"?>\n<AcknowledgementMessage>é</AcknowledgementMessage>\n';

describe('decodeAck', () => {
  it('reads one-byte-per-character text declared as UTF-16 as UTF-8', () => {
    expect(decodeAck(Buffer.from(XML, 'utf8'))).toEqual({ text: XML });
  });

  it('keeps a cut-short one readable, with where its NUL is', () => {
    const cut = Buffer.concat([Buffer.from(XML.slice(0, 60), 'utf8'), Buffer.alloc(8)]);
    expect(decodeAck(cut)).toEqual({
      text: XML.slice(0, 60),
      unreadable:
        'Unreadable: the file holds a NUL character at position 60 (read as UTF-8); it may be truncated or not text.',
    });
  });

  it('still reads real UTF-16 with and without a byte order mark, and a Latin-1 declaration', () => {
    const le = Buffer.from(XML, 'utf16le');
    expect(decodeAck(Buffer.concat([Buffer.from([0xff, 0xfe]), le]))).toEqual({ text: XML });
    expect(decodeAck(le)).toEqual({ text: XML });
    const latin = '<?xml version="1.0" encoding="ISO-8859-1"?><a>é</a>';
    expect(decodeAck(Buffer.from(latin, 'latin1'))).toEqual({ text: latin });
  });
});
