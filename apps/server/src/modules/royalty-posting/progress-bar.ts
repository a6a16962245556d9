/**
 * The progress of `royalties:import` on the CLI's stderr (decision 161): a bar redrawn in place on a
 * terminal, plain lines elsewhere (one per phase and per tenth of the file), so logs stay readable.
 */
import { type ImportProgress, ROYALTY_PHASE_LABELS } from '@tunedrop/shared/schemas/royalties';

const WIDTH = 24;

export function progressText(progress: ImportProgress): string {
  const total = progress.phase === 'posting' ? null : progress.linesTotal;
  const done = progress.phase === 'posting' ? progress.linesPosted : progress.linesRead;
  const label = ROYALTY_PHASE_LABELS[progress.phase];
  if (progress.phase === 'posting') return `${label}: ${done.toLocaleString('en-US')} line(s) posted`;
  if (!total) return label;
  const share = Math.min(1, done / total);
  const filled = Math.round(share * WIDTH);
  const bar = `[${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}]`;
  return `${bar} ${Math.floor(share * 100)}% ${label}: ${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} lines, ${progress.amountRead} so far`;
}

export function createProgressBar(stream: NodeJS.WriteStream) {
  const isTty = stream.isTTY === true;
  let lastPhase = '';
  let lastTenth = -1;
  let lastDraw = 0;
  let drawn = false;
  return {
    update(progress: ImportProgress) {
      const text = progressText(progress);
      if (isTty) {
        const now = Date.now();
        if (progress.phase === lastPhase && now - lastDraw < 100) return;
        lastPhase = progress.phase;
        lastDraw = now;
        stream.write(`\r\x1b[2K${text}`);
        drawn = true;
        return;
      }
      const total = progress.linesTotal ?? 0;
      const tenth = total > 0 ? Math.floor((progress.linesRead / total) * 10) : 0;
      if (progress.phase === lastPhase && (progress.phase !== 'reading' || tenth === lastTenth)) return;
      lastPhase = progress.phase;
      lastTenth = tenth;
      stream.write(`${text}\n`);
    },
    end() {
      if (isTty && drawn) stream.write('\n');
    },
  };
}
