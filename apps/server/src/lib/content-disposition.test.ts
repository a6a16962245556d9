import { describe, expect, it } from 'vitest';
import { asciiFileName, attachmentDisposition, safeFileName } from './content-disposition';

describe('attachmentDisposition', () => {
  it('keeps an ordinary name as it is', () => {
    expect(attachmentDisposition('track-3.wav')).toBe(
      `attachment; filename="track-3.wav"; filename*=UTF-8''track-3.wav`,
    );
  });

  it('drops path parts, markup and quotes from a hostile original name', () => {
    const header = attachmentDisposition('../../etc/<script>x".wav');
    expect(header).toBe(`attachment; filename="_script_x_.wav"; filename*=UTF-8''%3Cscript%3Ex%22.wav`);
    expect(header).not.toContain('..');
    expect(header).not.toContain('/');
  });

  it('never lets CR, LF, NUL or a semicolon split the header', () => {
    const header = attachmentDisposition('a\r\nSet-Cookie: x=1;\u0000b.wav');
    for (const character of ['\r', '\n', '\u0000']) expect(header).not.toContain(character);
    expect(header).toContain('filename="aSet-Cookie_ x_1_b.wav"');
    expect(header).toContain("filename*=UTF-8''aSet-Cookie%3A%20x%3D1%3Bb.wav");
  });

  it('carries a UTF-8 name in filename* and an ASCII stand-in in filename', () => {
    const header = attachmentDisposition("Émilie's (démo) *1*.wav");
    expect(header).toContain('filename="_milie_s (d_mo) _1_.wav"');
    expect(header).toContain("filename*=UTF-8''%C3%89milie%27s%20%28d%C3%A9mo%29%20%2A1%2A.wav");
    expect(decodeURIComponent(header.split("''")[1] ?? '')).toBe("Émilie's (démo) *1*.wav");
  });

  it('falls back to "download" when nothing usable is left', () => {
    expect(safeFileName('../')).toBe('download');
    expect(safeFileName('...')).toBe('download');
    expect(asciiFileName('日本語')).toBe('download');
    expect(attachmentDisposition('日本.wav')).toBe(
      `attachment; filename="__.wav"; filename*=UTF-8''%E6%97%A5%E6%9C%AC.wav`,
    );
  });
});
