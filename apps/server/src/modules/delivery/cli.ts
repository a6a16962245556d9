/** CLI commands of delivery (registered in cli-commands.ts): settings, codes backfill, targets. */
import { PLATFORM_IDS } from '@tunedrop/shared';
import {
  isSettingKey,
  SETTING_KEYS,
  SETTING_VALUE_SCHEMAS,
  targetInputSchema,
} from '@tunedrop/shared/schemas/delivery';
import { CliError, type Command } from '../../lib/cli-error';
import { writeSetting } from './codes';
import { backfillCodes } from './planning';
import { createTarget } from './targets';

export const deliveryCliCommands: Record<string, Command> = {
  'settings:set': {
    usage: `KEY VALUE   (KEY: ${SETTING_KEYS.join(', ')}; an empty VALUE clears ISRC_REGISTRANT / UPC_PREFIX)`,
    async run(system, positionals) {
      const [key, value = ''] = positionals;
      if (!key || !isSettingKey(key)) {
        throw new CliError(`KEY must be one of ${SETTING_KEYS.join(', ')}`, 2);
      }
      const parsed = SETTING_VALUE_SCHEMAS[key].safeParse(value);
      if (!parsed.success) throw new CliError(parsed.error.issues[0]?.message ?? 'invalid value', 2);
      await writeSetting(system.db, key, parsed.data, null);
      let note = '';
      if (key === 'ISRC_REGISTRANT' || key === 'UPC_PREFIX') {
        const result = await backfillCodes(system.db, system.config);
        if (result.releases > 0) note = `\nCodes given to ${result.releases} waiting release(s).`;
      }
      return `${key} = ${parsed.data ?? '(cleared)'}${note}`;
    },
  },
  'codes:backfill': {
    usage: '   (gives ISRCs and UPCs to approved releases that have none, and queues their deliveries)',
    async run(system) {
      const result = await backfillCodes(system.db, system.config);
      const lines = [
        `Assigned ${result.isrc} ISRC(s) and ${result.upc} UPC(s) to ${result.releases} release(s).`,
      ];
      if (result.stillMissing > 0) {
        lines.push(
          `${result.stillMissing} release(s) still need codes: set ISRC_REGISTRANT and UPC_PREFIX first.`,
        );
      }
      return lines.join('\n');
    },
  },
  'delivery:target:add': {
    usage:
      '--name N --url URL --dpid DPID --platforms all|id,id [--profile release|batch] [--key FILE] [--host-key SHA256:…]   (sftp: without --host-key the key seen at the first connection is pinned)',
    options: {
      name: { type: 'string' },
      url: { type: 'string' },
      dpid: { type: 'string' },
      platforms: { type: 'string' },
      profile: { type: 'string' },
      key: { type: 'string' },
      'host-key': { type: 'string' },
    },
    paths: { options: ['key'] },
    async run(system, _positionals, flags) {
      const platformsFlag = typeof flags.platforms === 'string' ? flags.platforms.trim() : '';
      const platforms =
        platformsFlag === 'all'
          ? 'all'
          : platformsFlag
              .split(',')
              .map((p) => p.trim())
              .filter(Boolean);
      let privateKey: string | undefined;
      if (typeof flags.key === 'string') {
        const fs = await import('node:fs/promises');
        privateKey = await fs.readFile(flags.key, 'utf8').catch(() => {
          throw new CliError(`cannot read --key ${flags.key}`, 2);
        });
      }
      const parsed = targetInputSchema.safeParse({
        name: flags.name,
        url: flags.url,
        dpid: flags.dpid,
        platforms,
        profile: flags.profile ?? 'release',
        ...(privateKey ? { privateKey } : {}),
        ...(typeof flags['host-key'] === 'string' ? { hostKey: flags['host-key'] } : {}),
      });
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const field = issue?.path[0] === undefined ? undefined : String(issue.path[0]);
        const key = field === 'hostKey' ? 'host-key' : field;
        const isMissing = key !== undefined && flags[key] === undefined;
        const hint = key === 'platforms' ? ` (ids: ${PLATFORM_IDS.join(', ')})` : '';
        if (isMissing) throw new CliError(`--${key} is required`, 2);
        throw new CliError(`${key ? `--${key}: ` : ''}${issue?.message ?? 'invalid input'}${hint}`, 2);
      }
      try {
        const target = await createTarget(system.db, system.config, parsed.data);
        const hostKey =
          target.scheme !== 'sftp'
            ? ''
            : target.hostKeyFingerprint
              ? `, host key ${target.hostKeyFingerprint}`
              : ', host key pinned at the first connection';
        return `Added delivery target ${target.name} (${target.id}): ${target.urlMasked}, ${
          target.platforms === 'all' ? 'all platforms' : target.platforms.join(', ')
        }, ${target.profile} profile${hostKey}`;
      } catch (error) {
        throw new CliError(error instanceof Error ? error.message : String(error));
      }
    },
  },
};
