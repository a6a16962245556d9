/** CLI command of the money journal (registered in cli-commands.ts): `ledger:verify`. */
import { CliError, type Command } from '../../lib/cli-error';
import { describeVerification, verifyLedger } from './verify';

export const ledgerCliCommands: Record<string, Command> = {
  'ledger:verify': {
    usage:
      '   (the journal balanced, every cached balance, held share, open suspense and operator figure equal to it, the finance identities per report; exit 1 with the differences)',
    async run(system) {
      const result = await verifyLedger(system.db);
      const lines = describeVerification(result).join('\n');
      if (result.differences.length > 0) throw new CliError(lines);
      return lines;
    },
  },
};
