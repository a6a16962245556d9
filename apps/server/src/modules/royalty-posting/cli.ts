/** CLI command of royalty import (registered in cli-commands.ts): `royalties:import FILE [--post]`. */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { formatCents } from '@tunedrop/shared';
import { ROYALTY_FORMATS, ROYALTY_TEXTS, royaltyImportQuerySchema } from '@tunedrop/shared/schemas/royalties';
import { ROYALTY_CHECK_TEXTS } from '@tunedrop/shared/schemas/royalty-checks';
import { CliError, type Command } from '../../lib/cli-error';
import { AppError } from '../../lib/errors';
import {
  detectCurrency,
  importRoyaltyFile,
  presetLayout,
  queueLocalFile,
  readLimitsOf,
} from '../royalty-imports';
import { postImport } from './posting';
import { createProgressBar } from './progress-bar';

export const royaltiesCliCommands: Record<string, Command> = {
  'royalties:import': {
    usage: `FILE [--format ${ROYALTY_FORMATS.join('|')}] [--rate R] [--currency CUR] [--preset ID] [--post] [--no-wait]`,
    options: {
      format: { type: 'string' },
      rate: { type: 'string' },
      currency: { type: 'string' },
      preset: { type: 'string' },
      post: { type: 'boolean' },
      'no-wait': { type: 'boolean' },
    },
    paths: { positionals: [0] },
    async run(system, positionals, flags, io) {
      const [file] = positionals;
      if (!file) throw new CliError('FILE is required', 2);
      const parsed = royaltyImportQuerySchema.safeParse({
        format: flags.format,
        rate: flags.rate,
        currency: flags.currency,
        preset: flags.preset,
      });
      if (!parsed.success) throw new CliError(parsed.error.issues[0]?.message ?? 'invalid option', 2);
      const filePath = path.resolve(file);
      const fileStat = await stat(filePath).catch(() => null);
      if (!fileStat?.isFile()) throw new CliError(`no file at ${filePath}`, 2);
      if (!parsed.data.rate) {
        // The file says its currency before anything is imported: a non-USD report needs its rate (record 187).
        const found = await detectCurrency(filePath, {
          format: parsed.data.format,
          preset: await presetLayout(system.db, parsed.data.preset),
          currency: parsed.data.currency,
          limits: readLimitsOf(system.config),
        });
        if (found.currency && found.currency !== 'USD') {
          throw new CliError(ROYALTY_CHECK_TEXTS.cliNeedsRate(found.currency), 2);
        }
      }
      const input = {
        filePath,
        fileName: path.basename(filePath),
        format: parsed.data.format,
        rate: parsed.data.rate,
        currency: parsed.data.currency,
        presetId: parsed.data.preset,
        limits: readLimitsOf(system.config),
      };
      if (flags['no-wait'] === true) {
        if (flags.post === true) throw new CliError('--post waits for the import; leave out --no-wait', 2);
        try {
          // A copy: the job owns what is in storage, the admin keeps their file (record 251).
          const accepted = await queueLocalFile(system, input);
          return `Import ${accepted.id} queued; a worker reads it (see /admin/royalties).`;
        } catch (error) {
          if (error instanceof AppError) throw new CliError(error.message);
          throw error;
        }
      }
      const bar = io ? createProgressBar(io.stderr) : null;
      try {
        // Waiting: queued as with --no-wait, then the job runs in this process (or a worker that took it
        // first is waited for), the one way a report is read (record 276).
        const summary = await importRoyaltyFile(system, {
          ...input,
          onProgress: (progress) => bar?.update(progress),
        });
        const lines = [
          `Import ${summary.id}: ${summary.format}, ${summary.status}, ${summary.lineCount} line(s), ${summary.totalAmount} ${summary.currency} (rate to USD ${summary.exchangeRate || '?'})`,
          `Matched ${summary.matched.lines} line(s), unmatched ${summary.unmatched.lines}, refused ${summary.refusedCount}.`,
          // Lines another report posted are left out (decision 186); including them is the admin page's confirmation.
          ...(summary.overlap?.reports ?? []).map(
            (report) =>
              `Left out: ${report.lines} line(s), ${report.amount} ${summary.currency}, ${ROYALTY_TEXTS.alreadyPostedIn(report.fileName, report.postedAt?.slice(0, 10) ?? '?')}.`,
          ),
          ...summary.errors.map((error) => `Error: ${error}`),
          ...summary.warnings.map((warning) => `Warning: ${warning}`),
          ...summary.refused.slice(0, 20).map((line) => `Refused line ${line.line}: ${line.reason}`),
        ];
        if (summary.refusedCount > 20) lines.push(`… and ${summary.refusedCount - 20} more refused line(s).`);
        if (summary.status === 'failed') {
          bar?.end();
          throw new CliError(`${lines.join('\n')}\nThe report has errors and was not posted.`);
        }
        if (flags.post === true) {
          let posted = 0;
          const result = await postImport(system.db, summary.id, {
            admin: null,
            onProgress: (lines) => {
              posted += lines;
              bar?.update({ ...summary.progress, phase: 'posting', linesPosted: posted });
            },
          });
          system.wakeMail();
          lines.push(
            `Posted: ${formatCents(result.postedCents)} to ${result.artists} artist(s) from ${result.earningsLines} line(s); rounding residue ${result.residue} USD.`,
          );
        }
        bar?.end();
        return lines.join('\n');
      } catch (error) {
        bar?.end();
        if (error instanceof AppError) throw new CliError(error.message);
        throw error;
      }
    },
  },
};
