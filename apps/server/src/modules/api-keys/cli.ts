/** CLI command of API keys (registered in cli-commands.ts): `api-key:create` prints the key once (record 290). */
import { API_SCOPES, type ApiScope } from '@tunedrop/shared/schemas/api-keys';
import { z } from 'zod';
import { viewerOfPerson } from '../../lib/access';
import { CliError, type Command } from '../../lib/cli-error';
import { AppError } from '../../lib/errors';
import { findUserIdByEmail } from '../auth';
import { createApiKey } from './service';

export const apiKeysCliCommands: Record<string, Command> = {
  'api-key:create': {
    usage: `--email E --scopes a,b [--expires DAYS] [--name N]   (a key for E's own account; scopes: ${API_SCOPES.join(', ')})`,
    options: {
      email: { type: 'string' },
      scopes: { type: 'string' },
      expires: { type: 'string' },
      name: { type: 'string' },
    },
    async run(system, _positionals, flags) {
      const email = typeof flags.email === 'string' ? flags.email : '';
      if (!email) throw new CliError('--email is required', 2);
      if (typeof flags.scopes !== 'string' || !flags.scopes.trim())
        throw new CliError('--scopes is required', 2);
      const scopes = flags.scopes
        .split(',')
        .map((scope) => scope.trim())
        .filter(Boolean);
      const unknown = scopes.filter((scope) => !(API_SCOPES as readonly string[]).includes(scope));
      if (unknown.length)
        throw new CliError(`unknown scope(s) ${unknown.join(', ')}; known: ${API_SCOPES.join(', ')}`, 2);
      const expires = flags.expires === undefined ? null : Number(flags.expires);
      if (expires !== null && (!Number.isInteger(expires) || expires < 1 || expires > 3650))
        throw new CliError('--expires must be a whole number of days from 1 to 3650', 2);
      const userId = await findUserIdByEmail(system.db, email);
      if (!userId) throw new CliError(`no user with email ${email}`);
      const viewer = await viewerOfPerson(system.db, userId, userId, 'cli');
      if (!viewer) throw new CliError(`no profile for ${email}`);
      try {
        const name = typeof flags.name === 'string' && flags.name.trim() ? flags.name : 'Made with the CLI';
        const { key, created } = await createApiKey(system.db, viewer, {
          name,
          scopes: scopes as ApiScope[],
          expiresInDays: expires,
        });
        return [
          `Created API key "${created.name}" (${created.id}) for ${email}, scopes ${created.scopes.join(', ')}${
            created.expiresAt ? `, expires ${created.expiresAt}` : ''
          }. It is shown only this once:`,
          key,
        ].join('\n');
      } catch (error) {
        if (error instanceof AppError) throw new CliError(error.message, 2);
        if (error instanceof z.ZodError) throw new CliError(error.issues[0]?.message ?? 'invalid input', 2);
        throw error;
      }
    },
  },
};
