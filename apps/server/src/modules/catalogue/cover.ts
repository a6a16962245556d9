/**
 * Cover art checks by content (JPEG or PNG bytes, exactly 3000x3000, RGB, under 10 MB) and the two
 * thumbnails lists and cards show, made with sharp so no page ever loads the 3000 px original.
 */
import fsp from 'node:fs/promises';
import { LIMITS } from '@tunedrop/shared';
import { BUILDER_MESSAGES } from '@tunedrop/shared/schemas/builder';
import sharp from 'sharp';

export const COVER_MESSAGES = {
  notRgb: 'Cover art must be an RGB image (no transparency, CMYK or greyscale).',
  damaged: 'The cover art image is damaged or incomplete.',
} as const;

/** Thumbnail edge lengths in pixels: lists (small) and cards (medium), both at twice their CSS size. */
export const THUMB_SIZES = { small: 200, medium: 600 } as const;

export class CoverError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CoverError';
  }
}

export type CoverInfo = {
  format: 'jpeg' | 'png';
  width: number;
  height: number;
  thumbSmall: Buffer;
  thumbMedium: Buffer;
};

/**
 * Checks the image (a path, or its bytes read from the bucket) and makes its thumbnails; throws a
 * CoverError with the spec's message.
 */
export async function checkCover(image: string | Buffer): Promise<CoverInfo> {
  const size = typeof image === 'string' ? (await fsp.stat(image)).size : image.length;
  if (size >= LIMITS.coverArtMaxBytes) throw new CoverError(BUILDER_MESSAGES.coverArtSize);
  let metadata: Awaited<ReturnType<ReturnType<typeof sharp>['metadata']>>;
  try {
    metadata = await sharp(image).metadata();
  } catch {
    throw new CoverError(BUILDER_MESSAGES.coverArtFormat);
  }
  if (metadata.format !== 'jpeg' && metadata.format !== 'png') {
    throw new CoverError(BUILDER_MESSAGES.coverArtFormat);
  }
  if (metadata.width !== LIMITS.coverArtPixels || metadata.height !== LIMITS.coverArtPixels) {
    throw new CoverError(BUILDER_MESSAGES.coverArtDimensions);
  }
  if (metadata.space !== 'srgb' || metadata.channels !== 3 || metadata.hasAlpha) {
    throw new CoverError(COVER_MESSAGES.notRgb);
  }
  try {
    // Decoding the whole image for the thumbnails also proves it is not truncated.
    const thumb = (edge: number) =>
      sharp(image, { failOn: 'truncated' })
        .resize(edge, edge, { fit: 'cover' })
        .jpeg({ quality: 82, mozjpeg: true })
        .toBuffer();
    const [thumbSmall, thumbMedium] = await Promise.all([
      thumb(THUMB_SIZES.small),
      thumb(THUMB_SIZES.medium),
    ]);
    return {
      format: metadata.format,
      width: metadata.width,
      height: metadata.height,
      thumbSmall,
      thumbMedium,
    };
  } catch {
    throw new CoverError(COVER_MESSAGES.damaged);
  }
}
