/**
 * `catalogue:import DIR --owner EMAIL [--skip-review] [--artist-profile NAME]` (registered in
 * cli-commands.ts; record 200): runs the import inline, the same run the admin page's job does (record 232).
 */
import { CliError, type Command } from '../../lib/cli-error';
import { AppError } from '../../lib/errors';
import { cliAuditActor } from '../audit';
import { formatCatalogueReport } from './report-text';
import { importCatalogue } from './service';

export const catalogueCliCommands: Record<string, Command> = {
  'catalogue:import': {
    usage:
      'DIR --owner EMAIL [--skip-review] [--artist-profile NAME]   (ERN 4.3 messages with their files, or a catalogue CSV with its files; every release under the named artist profile of the owner, else under the profile named like its artist; exit 1 when any release is refused)',
    options: {
      owner: { type: 'string' },
      'skip-review': { type: 'boolean' },
      'artist-profile': { type: 'string' },
    },
    paths: { positionals: [0] },
    async run(system, [dir], flags) {
      if (!dir) throw new CliError('DIR is required', 2);
      const owner = flags.owner;
      if (typeof owner !== 'string' || owner.trim() === '')
        throw new CliError('--owner EMAIL is required (the artist account the releases belong to)', 2);
      let report: Awaited<ReturnType<typeof importCatalogue>>;
      try {
        report = await importCatalogue(system, {
          dir,
          ownerEmail: owner,
          skipReview: flags['skip-review'] === true,
          artistProfile: typeof flags['artist-profile'] === 'string' ? flags['artist-profile'] : null,
          actor: { userId: null, label: cliAuditActor().email },
        });
      } catch (error) {
        if (error instanceof AppError) throw new CliError(error.message);
        throw error;
      }
      const text = formatCatalogueReport(report);
      // Refused releases or an unusable folder: the operator's script sees a failure, the report says why.
      if (report.refusedCount > 0 || report.problems.length > 0 || report.releases.length === 0)
        throw new CliError(text);
      return text;
    },
  },
};
