/** CLI commands of delivery (registered in cli-commands.ts): settings, codes backfill, targets and their lifecycle. */
import { PLATFORM_IDS } from '@tunedrop/shared';
import {
  DELIVERY_MESSAGES,
  isSettingKey,
  SETTING_KEYS,
  SETTING_VALUE_SCHEMAS,
  targetInputSchema,
  targetTakingDownMessage,
} from '@tunedrop/shared/schemas/delivery';
import { CliError, type Command, type CommandSystem } from '../../lib/cli-error';
import { AppError } from '../../lib/errors';
import { auditSettings, cliAuditActor, readSettingValues } from '../audit';
import { writeSetting } from './codes';
import { backfillCodes } from './planning';
import {
  discardNewTarget,
  findTarget,
  removeTarget,
  setTargetEnabled,
  testTargetConnection,
} from './target-lifecycle';
import { createTarget, getTargetRow, listTargets } from './targets';

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
      await system.db.transaction(async (tx) => {
        const before = await readSettingValues(tx, [key]);
        await writeSetting(tx, key, parsed.data, null);
        await auditSettings(tx, cliAuditActor(), key, before, { [key]: parsed.data });
      });
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
      '--name N --url URL --dpid DPID --platforms all|id,id [--profile release|batch|youtube] [--key FILE] [--host-key SHA256:…] [--disabled]   (tests the connection first and refuses an unreachable target unless --disabled; sftp: without --host-key the key seen at the first connection is pinned)',
    options: {
      name: { type: 'string' },
      url: { type: 'string' },
      dpid: { type: 'string' },
      platforms: { type: 'string' },
      profile: { type: 'string' },
      key: { type: 'string' },
      'host-key': { type: 'string' },
      disabled: { type: 'boolean' },
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
      const isDisabled = flags.disabled === true;
      try {
        // Added disabled, tested, then enabled: no approval queues to it before it answered.
        const actor = cliAuditActor();
        let target = await createTarget(system.db, system.config, { ...parsed.data, enabled: false }, actor);
        const test = await testTargetConnection(
          system.db,
          system.config,
          await getTargetRow(system.db, target.id),
        );
        if (!test.ok && !isDisabled) {
          await discardNewTarget(system.db, target.id, actor);
          throw new CliError(
            `${DELIVERY_MESSAGES.targetUnreachable}: ${test.message}\nAdd it with --disabled to keep it switched off until it answers.`,
          );
        }
        if (!isDisabled) await setTargetEnabled(system.db, target.id, true, actor);
        // Read again: the test may have pinned the host key it saw.
        target = (await listTargets(system.db)).find((t) => t.id === target.id) ?? target;
        const hostKey =
          target.scheme !== 'sftp'
            ? ''
            : target.hostKeyFingerprint
              ? `, host key ${target.hostKeyFingerprint}`
              : ', host key pinned at the first connection';
        return `Added delivery target ${target.name} (${target.id}): ${target.urlMasked}, ${
          target.platforms === 'all' ? 'all platforms' : target.platforms.join(', ')
        }, ${target.profile} profile${hostKey}${
          isDisabled ? `\nDisabled (connection test: ${test.ok ? 'ok' : test.message}).` : ''
        }`;
      } catch (error) {
        if (error instanceof CliError) throw error;
        throw new CliError(error instanceof Error ? error.message : String(error));
      }
    },
  },
  'delivery:target:list': {
    usage: '   (every target: id, name, enabled or disabled, URL without password, releases it holds)',
    async run(system) {
      const targets = await listTargets(system.db);
      if (targets.length === 0) return 'No delivery targets.';
      return targets
        .map(
          (t) =>
            `${t.id}  ${t.name}  ${t.enabled ? 'enabled' : 'disabled'}  ${t.urlMasked}  holds ${t.holds} release(s)`,
        )
        .join('\n');
    },
  },
  'delivery:target:disable': {
    usage: 'ID|NAME   (no new releases go there; updates and takedowns of what it holds still do)',
    async run(system, positionals) {
      const row = await targetArgument(system, positionals);
      await setTargetEnabled(system.db, row.id, false, cliAuditActor());
      return `Disabled ${row.name}: no new releases go there; updates and takedowns of what it holds still do.`;
    },
  },
  'delivery:target:enable': {
    usage: 'ID|NAME',
    async run(system, positionals) {
      const row = await targetArgument(system, positionals);
      await setTargetEnabled(system.db, row.id, true, cliAuditActor());
      return `Enabled ${row.name}.`;
    },
  },
  'delivery:target:remove': {
    usage:
      'ID|NAME [--take-down-all]   (refused while it holds releases; --take-down-all disables it and queues their takedowns, remove it again once they are taken down)',
    options: { 'take-down-all': { type: 'boolean' } },
    async run(system, positionals, flags) {
      const row = await targetArgument(system, positionals);
      try {
        const result = await removeTarget(system.db, row.id, {
          takeDownFirst: flags['take-down-all'] === true,
          actor: cliAuditActor(),
        });
        if (result.removed) return `Removed ${row.name}.`;
        return targetTakingDownMessage(row.name, result.held);
      } catch (error) {
        if (error instanceof AppError) throw new CliError(error.message);
        throw error;
      }
    },
  },
};

async function targetArgument(system: CommandSystem, positionals: string[]) {
  const [idOrName] = positionals;
  if (!idOrName) throw new CliError('name the target: ID or NAME (see delivery:target:list)', 2);
  const row = await findTarget(system.db, idOrName);
  if (!row) throw new CliError(`${DELIVERY_MESSAGES.targetNotFound} (${idOrName})`);
  return row;
}
