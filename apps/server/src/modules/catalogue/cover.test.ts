import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BUILDER_MESSAGES } from '@tunedrop/shared/schemas/builder';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { makeImage } from '../../test-support/media';
import { COVER_MESSAGES, checkCover, THUMB_SIZES } from './cover';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cover-test-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let counter = 0;
function write(body: Buffer | string, extension = 'png'): string {
  counter += 1;
  const file = path.join(dir, `cover-${counter}.${extension}`);
  fs.writeFileSync(file, body);
  return file;
}

describe('checkCover', () => {
  it('accepts a 3000x3000 PNG and makes 200 px and 600 px JPEG thumbnails', async () => {
    const info = await checkCover(write(await makeImage({ width: 3000, height: 3000, format: 'png' })));
    expect(info).toMatchObject({ format: 'png', width: 3000, height: 3000 });
    const small = await sharp(info.thumbSmall).metadata();
    const medium = await sharp(info.thumbMedium).metadata();
    expect([small.format, small.width, small.height]).toEqual(['jpeg', THUMB_SIZES.small, THUMB_SIZES.small]);
    expect([medium.format, medium.width, medium.height]).toEqual([
      'jpeg',
      THUMB_SIZES.medium,
      THUMB_SIZES.medium,
    ]);
  });

  it('accepts a 3000x3000 JPEG, whatever its file name says', async () => {
    const info = await checkCover(
      write(await makeImage({ width: 3000, height: 3000, format: 'jpeg' }), 'png'),
    );
    expect(info.format).toBe('jpeg');
  });

  it("refuses a 100x100 PNG with 'Cover art must be exactly 3000x3000 pixels'", async () => {
    const file = write(await makeImage({ width: 100, height: 100, format: 'png' }));
    await expect(checkCover(file)).rejects.toThrow(BUILDER_MESSAGES.coverArtDimensions);
  });

  it('refuses a 3000x2999 image', async () => {
    const file = write(await makeImage({ width: 3000, height: 2999, format: 'jpeg' }));
    await expect(checkCover(file)).rejects.toThrow('Cover art must be exactly 3000x3000 pixels');
  });

  it("refuses a text file named .png with 'Only JPG and PNG formats are accepted'", async () => {
    await expect(checkCover(write('not an image'))).rejects.toThrow(BUILDER_MESSAGES.coverArtFormat);
  });

  it('refuses a WebP image by its bytes', async () => {
    const webp = await sharp({ create: { width: 3000, height: 3000, channels: 3, background: '#336699' } })
      .webp()
      .toBuffer();
    await expect(checkCover(write(webp))).rejects.toThrow('Only JPG and PNG formats are accepted');
  });

  it("refuses a 12 MB file with 'File size must be less than 10MB'", async () => {
    await expect(checkCover(write(Buffer.alloc(12 * 1024 * 1024, 7)))).rejects.toThrow(
      BUILDER_MESSAGES.coverArtSize,
    );
  });

  it('refuses transparency and greyscale: the cover must be RGB', async () => {
    const rgba = await sharp({
      create: { width: 3000, height: 3000, channels: 4, background: { r: 1, g: 2, b: 3, alpha: 0.5 } },
    })
      .png()
      .toBuffer();
    await expect(checkCover(write(rgba))).rejects.toThrow(COVER_MESSAGES.notRgb);
    const grey = await sharp({ create: { width: 3000, height: 3000, channels: 3, background: '#777777' } })
      .toColourspace('b-w')
      .png()
      .toBuffer();
    await expect(checkCover(write(grey))).rejects.toThrow(COVER_MESSAGES.notRgb);
  });

  it('refuses a truncated JPEG as damaged', async () => {
    const jpeg = await makeImage({ width: 3000, height: 3000, format: 'jpeg' });
    await expect(checkCover(write(jpeg.subarray(0, Math.floor(jpeg.length / 2)), 'jpg'))).rejects.toThrow(
      COVER_MESSAGES.damaged,
    );
  });
});
