/** CLI command of contracts (registered in cli-commands.ts): `contracts:release-reserves`. */
import { formatCents } from '@tunedrop/shared';
import type { Command } from '../../lib/cli-error';
import { releaseDueReserves } from './reserves';

export const contractsCliCommands: Record<string, Command> = {
  'contracts:release-reserves': {
    usage:
      '   (release every contract reserve part due by this month now, as the daily job does; prints what was released)',
    async run(system) {
      const result = await releaseDueReserves(system.db);
      return `Released ${formatCents(result.cents)} in ${result.parts} reserve part(s) of ${result.contracts} contract(s).`;
    },
  },
};
