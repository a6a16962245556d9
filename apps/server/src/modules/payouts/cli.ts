/** CLI command of payouts (registered in cli-commands.ts): `payouts:run [--preview]`. */
import { formatCents } from '@tunedrop/shared';
import type { PayoutPreview } from '@tunedrop/shared/schemas/payouts';
import { CliError, type Command } from '../../lib/cli-error';
import { AppError } from '../../lib/errors';
import { cliAuditActor } from '../audit';
import { previewPayoutRun, startPayoutRun } from './run-plan';
import { withholdingFor } from './withholding';

function describe(preview: PayoutPreview): string[] {
  const lines = preview.items.map((item) =>
    item.blocked
      ? `BLOCKED  ${item.email}  ${formatCents(item.grossCents)}  ${item.blocked.reason}`
      : `PAY      ${item.email}  gross ${formatCents(item.grossCents)}  withheld ${formatCents(item.withheldCents)}  net ${formatCents(item.netCents)}  via ${item.provider}${item.withholding ? `  (${item.withholding})` : ''}`,
  );
  const t = preview.totals;
  lines.push(
    `${t.payees} payee(s) paid, ${t.blocked} blocked; gross ${formatCents(t.grossCents)}, withheld ${formatCents(t.withheldCents)}, net ${formatCents(t.netCents)}`,
  );
  return lines;
}

export const payoutsCliCommands: Record<string, Command> = {
  'payouts:run': {
    usage:
      '[--preview]   (plans a payout run now and queues its sending; --preview shows who would be paid, how much, the withholding and who is blocked, and changes nothing)',
    options: { preview: { type: 'boolean' } },
    async run(system, _positionals, flags) {
      const options = { trigger: 'manual' as const, actor: cliAuditActor(), withholding: withholdingFor };
      try {
        if (flags.preview === true)
          return ['Preview (nothing sent):', ...describe(await previewPayoutRun(system.db, options))].join(
            '\n',
          );
        const started = await startPayoutRun(system.db, options);
        return [`Payout run ${started.runId} planned; sending is queued.`, ...describe(started.preview)].join(
          '\n',
        );
      } catch (error) {
        if (error instanceof AppError) throw new CliError(error.message);
        throw error;
      }
    },
  },
};
