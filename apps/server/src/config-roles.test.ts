/** Production settings (record 160): roles need PostgreSQL and one secret; the metrics token is not trivial. */
import { describe, expect, it } from 'vitest';
import { parseConfig } from './config';

const secret = 's'.repeat(40);
const url = 'postgres://tunedrop@db:5432/tunedrop';

describe('TUNEDROP_ROLE', () => {
  it('defaults to all, so npm start runs everything', () => {
    expect(parseConfig({}).TUNEDROP_ROLE).toBe('all');
  });

  it.each(['web', 'worker'])('%s needs DATABASE_URL and APP_SECRET, named in one message', (role) => {
    expect(() => parseConfig({ TUNEDROP_ROLE: role })).toThrow(
      `Invalid configuration: DATABASE_URL, APP_SECRET: required when TUNEDROP_ROLE=${role} (web and worker processes share one PostgreSQL database and one secret)`,
    );
    expect(() => parseConfig({ TUNEDROP_ROLE: role, DATABASE_URL: url })).toThrow(
      /^Invalid configuration: APP_SECRET: required when TUNEDROP_ROLE/,
    );
    expect(parseConfig({ TUNEDROP_ROLE: role, DATABASE_URL: url, APP_SECRET: secret }).TUNEDROP_ROLE).toBe(
      role,
    );
  });

  it('refuses an unknown role', () => {
    expect(() => parseConfig({ TUNEDROP_ROLE: 'both' })).toThrow(
      'Invalid configuration: TUNEDROP_ROLE: must be all, web, worker or migrate',
    );
  });
});

describe('METRICS_TOKEN', () => {
  it('must be at least 16 characters when set', () => {
    expect(() => parseConfig({ METRICS_TOKEN: 'short' })).toThrow(
      'Invalid configuration: METRICS_TOKEN: must be at least 16 characters',
    );
    expect(parseConfig({ METRICS_TOKEN: 't'.repeat(16) }).METRICS_TOKEN).toBe('t'.repeat(16));
    expect(parseConfig({ METRICS_TOKEN: '' }).METRICS_TOKEN).toBeUndefined();
  });
});
