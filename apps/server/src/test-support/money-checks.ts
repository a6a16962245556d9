/**
 * What the money tests check after each step: `ledger:verify` passes (exit 0), and a person's balance and
 * pending balance as the profile row holds them.
 */
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { cliCommands } from '../cli-commands';
import { profiles } from '../db/schema';
import type { TestSystem } from './harness';

export async function expectLedgerVerifies(system: TestSystem) {
  const command = cliCommands['ledger:verify'];
  if (!command) throw new Error('ledger:verify is not registered');
  await expect(command.run(system, [], {})).resolves.toBeTruthy();
}

export async function balancesOf(system: TestSystem, userId: string) {
  const [row] = await system.db
    .select({ balance: profiles.balanceCents, pending: profiles.pendingBalanceCents })
    .from(profiles)
    .where(eq(profiles.id, userId));
  return row;
}
