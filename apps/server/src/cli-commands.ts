/** The CLI's commands. Each takes the running system, positionals and flags, and returns what it prints. */
import { formatCents, isOneOf, PLANS, parseAmountToCents, ROLES, type Role } from '@tunedrop/shared';
import { eq } from 'drizzle-orm';
import { profiles } from './db/schema';
import { CliError, type Command, type FlagValue } from './lib/cli-error';
import { AppError } from './lib/errors';
import { apiKeysCliCommands } from './modules/api-keys/cli';
import { createAccount, findUserIdByEmail, grantRole, revokeRole } from './modules/auth';
import { catalogueCliCommands } from './modules/catalogue-import/cli';
import { contractsCliCommands } from './modules/contracts/cli';
import { deliveryCliCommands } from './modules/delivery/cli';
import { describeFinance, financeIdentities } from './modules/finance';
import { ledgerCliCommands } from './modules/ledger/cli';
import { payoutsCliCommands } from './modules/payouts/cli';
import { royaltiesCliCommands } from './modules/royalty-posting';
import { taxCliCommands } from './modules/tax/cli';
import { auditBalances, describeMismatch, setBalanceByCli } from './modules/wallet';
import type { System } from './server';

const requireString = (flags: Record<string, FlagValue>, name: string): string => {
  const value = flags[name];
  if (typeof value !== 'string' || value.trim() === '') throw new CliError(`--${name} is required`, 2);
  return value;
};

async function requireUser(system: System, email: string | undefined): Promise<string> {
  if (!email) throw new CliError('an email is required', 2);
  const userId = await findUserIdByEmail(system.db, email);
  if (!userId) throw new CliError(`no user with email ${email}`);
  return userId;
}

function parseRole(value: string | undefined): Role {
  if (!isOneOf(ROLES, value)) throw new CliError(`role must be one of ${ROLES.join(', ')}`, 2);
  return value;
}

/**
 * The commands that set an install up and so may create the embedded database where there is none;
 * every other command refuses an empty DATA_DIR (it was most likely run in the wrong folder).
 */
export const COMMANDS_THAT_MAY_CREATE_A_DATABASE: ReadonlySet<string> = new Set([
  'user:create',
  'settings:set',
  'delivery:target:add',
]);

export const cliCommands: Record<string, Command> = {
  'user:create': {
    usage:
      '--email E --password P --name "Full Name" --artist "Artist" [--plan basic|pro] [--verified] [--active]',
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      name: { type: 'string' },
      artist: { type: 'string' },
      plan: { type: 'string' },
      verified: { type: 'boolean' },
      active: { type: 'boolean' },
    },
    async run(system, _positionals, flags) {
      const email = requireString(flags, 'email');
      const password = requireString(flags, 'password');
      const fullName = requireString(flags, 'name');
      const artistName = requireString(flags, 'artist');
      const plan = flags.plan ?? 'basic';
      if (!isOneOf(PLANS, plan)) throw new CliError('--plan must be basic or pro', 2);
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
        throw new CliError('--email is not a valid email address', 2);
      if (password.length < 8) throw new CliError('--password must be at least 8 characters', 2);
      let userId: string;
      try {
        ({ userId } = await createAccount(system.db, {
          email,
          password,
          fullName,
          artistName,
          plan,
          isEmailVerified: flags.verified === true,
        }));
      } catch (error) {
        if (error instanceof AppError && error.code === 'email_taken')
          throw new CliError(`${email} is already registered`);
        throw error;
      }
      if (flags.active === true) {
        const end = new Date();
        end.setMonth(end.getMonth() + 1);
        await system.db
          .update(profiles)
          .set({ subscriptionStatus: 'active', subscriptionEnd: end, updatedAt: new Date() })
          .where(eq(profiles.id, userId));
      }
      return `Created user ${email} (${userId}), plan ${plan}${flags.verified ? ', email verified' : ''}${
        flags.active ? ', subscription active for a month' : ''
      }`;
    },
  },
  'role:grant': {
    usage: 'EMAIL admin|moderator|free_access',
    async run(system, [email, roleName]) {
      const role = parseRole(roleName);
      const userId = await requireUser(system, email);
      await grantRole(system.db, userId, role);
      return `Granted ${role} to ${email}`;
    },
  },
  'role:revoke': {
    usage: 'EMAIL admin|moderator|free_access',
    async run(system, [email, roleName]) {
      const role = parseRole(roleName);
      const userId = await requireUser(system, email);
      const isRevoked = await revokeRole(system.db, userId, role);
      return isRevoked ? `Revoked ${role} from ${email}` : `${email} did not have ${role}; nothing changed`;
    },
  },
  'balance:set': {
    usage: 'EMAIL AMOUNT   (for example 123.45)',
    async run(system, [email, amount]) {
      const userId = await requireUser(system, email);
      const cents = amount === undefined ? null : parseAmountToCents(amount);
      if (cents === null || cents < 0)
        throw new CliError('AMOUNT must be a non-negative number with at most 2 decimals', 2);
      const result = await setBalanceByCli(system.db, userId, cents);
      return `Balance of ${email}: ${formatCents(result.oldBalanceCents)} -> ${formatCents(result.newBalanceCents)}`;
    },
  },
  'audit:balances': {
    usage:
      '   (recomputes every balance from the balance log and pending withdrawals; exit 1 on any mismatch)',
    async run(system) {
      const { checked, mismatches } = await auditBalances(system.db);
      // The finance overview's identities (record 189): per report and the liability against the ledger.
      const finance = await financeIdentities(system.db);
      const figures = describeFinance(finance);
      if (mismatches.length === 0 && finance.failures.length === 0) {
        return [`Checked ${checked} profiles: every balance matches its records.`, ...figures].join('\n');
      }
      throw new CliError(
        [
          ...(mismatches.length > 0
            ? [
                `${mismatches.length} mismatch(es) in ${checked} profiles:`,
                ...mismatches.map(describeMismatch),
              ]
            : [`Checked ${checked} profiles: every balance matches its records.`]),
          ...finance.failures.map(
            (failure) =>
              `Finance: ${failure.what} does not hold: expected ${failure.expected}, found ${failure.found}`,
          ),
          ...figures,
        ].join('\n'),
      );
    },
  },
  ...apiKeysCliCommands,
  ...catalogueCliCommands,
  ...contractsCliCommands,
  ...deliveryCliCommands,
  ...ledgerCliCommands,
  ...payoutsCliCommands,
  ...royaltiesCliCommands,
  ...taxCliCommands,
};
