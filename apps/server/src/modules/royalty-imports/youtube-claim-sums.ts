/**
 * A YouTube Content ID report's claims summed per track and video as its lines stream (decision 193),
 * in the staging worker (record 207); youtube-claims.ts writes them once the import is staged.
 */
import { addToSum, DECIMAL_ZERO, type ScaledDecimal } from '@tunedrop/shared/money';
import { normaliseIsrc, type ParsedLine } from './parse-common';

export type ClaimSum = {
  isrc: string | null;
  assetId: string | null;
  videoId: string;
  videoTitle: string | null;
  channelId: string | null;
  channelName: string | null;
  views: bigint;
  amount: ScaledDecimal;
  lines: number;
};

/** Sums the claims of the lines that pass through it; the lines go on unchanged. */
export class YoutubeClaimCollector {
  private readonly sums: Map<string, ClaimSum>;

  constructor(sums: Map<string, ClaimSum> = new Map()) {
    this.sums = sums;
  }

  /** A collector with the sums another thread collected (the staging worker's, structured-cloned). */
  static restore(sums: Map<string, ClaimSum>): YoutubeClaimCollector {
    return new YoutubeClaimCollector(sums);
  }

  /** The sums as they are, to hand to another thread. */
  snapshot(): Map<string, ClaimSum> {
    return this.sums;
  }

  async *collect(lines: AsyncIterable<ParsedLine>): AsyncGenerator<ParsedLine> {
    for await (const line of lines) {
      this.add(line);
      yield line;
    }
  }

  add(line: ParsedLine): void {
    const claim = line.youtube;
    if (!claim) return;
    const isrc = normaliseIsrc(line.isrc);
    const key = `${isrc ?? ''}\u0000${claim.assetId ?? ''}\u0000${claim.videoId}`;
    let sum = this.sums.get(key);
    if (!sum) {
      sum = {
        isrc,
        assetId: claim.assetId,
        videoId: claim.videoId,
        videoTitle: null,
        channelId: null,
        channelName: null,
        views: 0n,
        amount: DECIMAL_ZERO,
        lines: 0,
      };
      this.sums.set(key, sum);
    }
    // The last line's names win: a video renamed during the period shows its current title.
    sum.videoTitle = claim.videoTitle ?? sum.videoTitle;
    sum.channelId = claim.channelId ?? sum.channelId;
    sum.channelName = claim.channelName ?? sum.channelName;
    sum.views += BigInt(line.units);
    if (line.amount !== null) sum.amount = addToSum(sum.amount, line.amount);
    sum.lines += 1;
  }

  get size(): number {
    return this.sums.size;
  }

  values(): IterableIterator<ClaimSum> {
    return this.sums.values();
  }
}
