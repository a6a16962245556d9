/** Every environment variable the server reads, parsed once at start with zod. */
import path from 'node:path';
import { ROYALTY_LIMITS } from '@tunedrop/shared/schemas/royalties';
import { z } from 'zod';
import type { DatabaseTimeouts } from './db/timed-client';
import { readOrCreateAppSecret } from './lib/app-secret';
import { parseAllowList } from './lib/metrics-access';

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value));

const milliseconds = z.coerce
  .number({ message: 'must be a number of milliseconds' })
  .int({ message: 'must be a number of milliseconds' })
  .min(0, { message: 'must be a number of milliseconds' })
  .max(2_147_483_647, { message: 'must be at most 2147483647 milliseconds' });

const optionalUrl = optionalString.pipe(z.url({ message: 'must be a URL' }).optional());

const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number({ message: 'must be a port number' }).int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  APP_URL: optionalUrl,
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\/.+/, 'must be a postgres:// or postgresql:// URL')
      .optional(),
  ),
  /** PostgreSQL timeouts (record 223), in milliseconds; 0 turns one off. None applies to the embedded PGlite. */
  DATABASE_CONNECT_TIMEOUT_MS: milliseconds.default(5_000),
  DATABASE_STATEMENT_TIMEOUT_MS: milliseconds.default(15_000),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: milliseconds.default(60_000),
  /** The limit of jobs' long statements (posting chunks, staging steps) and of migrations (none by default). */
  DATABASE_LONG_STATEMENT_TIMEOUT_MS: milliseconds.default(600_000),
  APP_SECRET: optionalString,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SUPPORT_EMAIL: z.email({ message: 'must be an email address' }).default('support@tunedrop.local'),
  PRIVACY_EMAIL: z.email({ message: 'must be an email address' }).default('privacy@tunedrop.local'),
  MAIL_FROM: z.string().default('Tunedrop <no-reply@tunedrop.local>'),
  SMTP_URL: optionalString.pipe(
    z
      .string()
      .regex(/^smtps?:\/\/.+/, 'must be an smtp:// or smtps:// URL')
      .optional(),
  ),
  SOCIAL_INSTAGRAM_URL: optionalUrl,
  SOCIAL_X_URL: optionalUrl,
  SOCIAL_YOUTUBE_URL: optionalUrl,
  SOCIAL_TIKTOK_URL: optionalUrl,
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_PRICE_BASIC: optionalString,
  STRIPE_PRICE_PRO: optionalString,
  STRIPE_API_BASE: optionalUrl,
  PAYMENTS_SANDBOX: z.enum(['0', '1', '']).optional(),
  SPOTIFY_CLIENT_ID: optionalString,
  SPOTIFY_CLIENT_SECRET: optionalString,
  SPOTIFY_API_BASE: z.url({ message: 'must be a URL' }).default('https://api.spotify.com'),
  SPOTIFY_ACCOUNTS_BASE: z.url({ message: 'must be a URL' }).default('https://accounts.spotify.com'),
  S3_BUCKET: optionalString,
  S3_ENDPOINT: optionalUrl,
  S3_REGION: optionalString,
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  UPLOAD_MAX_WAV_BYTES: z.coerce
    .number({ message: 'must be a number of bytes' })
    .int()
    .positive()
    .default(2 * 1024 ** 3),
  UPLOAD_STALE_HOURS: z.coerce.number({ message: 'must be a number of hours' }).positive().default(24),
  BODY_LIMIT_BYTES: z.coerce
    .number({ message: 'must be a number of bytes' })
    .int()
    .positive()
    .default(1024 * 1024),
  /** Royalty reports (decision 151): the longest line and the most bytes a (gzip) report may expand to. */
  ROYALTY_MAX_LINE_BYTES: z.coerce
    .number({ message: 'must be a number of bytes' })
    .int()
    .positive()
    .default(ROYALTY_LIMITS.maxLineBytes),
  ROYALTY_MAX_DECOMPRESSED_BYTES: z.coerce
    .number({ message: 'must be a number of bytes' })
    .int()
    .positive()
    .default(ROYALTY_LIMITS.maxDecompressedBytes),
  /**
   * Royalty reports of this many lines or more are parsed in a worker thread (records 207, 214); smaller
   * ones in the importing thread, where a worker's start would cost more than the parse. 0: always a worker.
   */
  ROYALTY_STAGE_WORKER_MIN_LINES: z.coerce
    .number({ message: 'must be a number of lines' })
    .int()
    .min(0)
    .default(100_000),
  /** Hours a change of payout details holds the account's withdrawals (record 229); 0 turns the hold off. */
  PAYOUT_HOLD_HOURS: z.coerce.number({ message: 'must be a number of hours' }).min(0).max(8760).default(72),
  SMTP_TIMEOUT_SECONDS: z.coerce.number({ message: 'must be a number of seconds' }).positive().default(30),
  DDEX_SENDER_PARTY_ID: z.string().default('PADPIDA0000000000T'),
  DDEX_SENDER_NAME: z.string().default('Tunedrop'),
  DDEX_RECIPIENT_PARTY_ID: z.string().default('PADPIDA0000000000R'),
  DDEX_RECIPIENT_NAME: z.string().default('Distribution Partner'),
  RATE_LIMITS: z.enum(['on', 'off']).default('on'),
  TRUST_PROXY: z.enum(['0', '1']).default('0'),
  E2E_FIXTURES_TOKEN: optionalString,
  /**
   * Which parts this process runs (issue 24): `all` (default), `web` (HTTP only) or `worker` (jobs only);
   * `migrate` applies the migrations and the job engine's schema, then exits (record 224).
   */
  TUNEDROP_ROLE: z
    .enum(['all', 'web', 'worker', 'migrate'], { message: 'must be all, web, worker or migrate' })
    .default('all'),
  /**
   * OpenTelemetry (record 225): traces are exported over OTLP/HTTP to `<endpoint>/v1/traces` when set;
   * unset, nothing of the SDK is loaded. OTEL_EXPORTER_OTLP_HEADERS (the exporter's own) adds headers.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl,
  OTEL_SERVICE_NAME: z.string().default('tunedrop'),
  /** The folder `file://` delivery targets must be inside (record 227); unset, DATA_DIR/targets. */
  DELIVERY_FILE_ROOT: optionalString,
  /**
   * Hosts, addresses or CIDR ranges (comma-separated) that SFTP and S3 delivery targets may use although
   * they are loopback, link-local, private or cloud-metadata addresses (record 227); unset, none.
   */
  DELIVERY_ALLOWED_HOSTS: optionalString,
  /** Requests one API key may make a minute on /api/v1 (record 290); over it, 429 with Retry-After. */
  API_KEY_RATE_LIMIT: z.coerce.number({ message: 'must be a number' }).int().min(1).default(120),
  /** Bearer token for GET /metrics (records 159, 218). */
  METRICS_TOKEN: optionalString,
  /**
   * Addresses and CIDRs (comma-separated) whose callers may read GET /metrics without the token (record
   * 218); unset: loopback, or nobody with TRUST_PROXY=1.
   */
  METRICS_ALLOW: optionalString,
  /**
   * On SIGTERM: how long job runs in flight may take to finish before they are handed over to other
   * workers, and HTTP requests to be answered (record 217). The container's stop grace period must exceed it.
   */
  SHUTDOWN_DRAIN_SECONDS: z.coerce
    .number({ message: 'must be a number of seconds' })
    .min(0, 'must be 0 to 120 seconds')
    .max(120, 'must be 0 to 120 seconds')
    .default(8),
  /** Worker threads building royalty statements (record 208); unset, one fewer than the cores; 0 on the event loop. */
  STATEMENT_THREADS: optionalString.pipe(
    z
      .string()
      .regex(/^\d{1,2}$/, 'must be a whole number of threads (0-99)')
      .transform(Number)
      .optional(),
  ),
});

/** Every variable the schema reads (`.env.example` and compose.yaml are checked against it). */
export const CONFIG_VARIABLES = Object.keys(configSchema.shape);

/** The parsed environment without the secret (the CLI decides whether it may create one). */
export type ParsedConfig = z.infer<typeof configSchema> & {
  appUrl: string;
  /**
   * JOBS_CONCURRENCY_<QUEUE or MODULE>=N (record 156), by the part after the prefix (`DELIVERY_SEND`,
   * `DELIVERY`): runs at once per queue in this process.
   */
  jobsConcurrency: Record<string, number>;
  dataDir: string;
  /** DELIVERY_FILE_ROOT resolved (default `DATA_DIR/targets`). */
  deliveryFileRoot: string;
  isPaymentsSandboxAllowed: boolean;
};

/** The pool's timeouts from the configuration (db/timed-client.ts). */
export function databaseTimeouts(config: ParsedConfig): DatabaseTimeouts {
  return {
    connectMs: config.DATABASE_CONNECT_TIMEOUT_MS,
    statementMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
    idleInTransactionMs: config.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    longStatementMs: config.DATABASE_LONG_STATEMENT_TIMEOUT_MS,
  };
}

export type Config = ParsedConfig & {
  appSecret: string;
  /** Where the secret came from: the APP_SECRET variable, or the file generated in DATA_DIR (decision 141). */
  appSecretSource: 'APP_SECRET' | 'DATA_DIR';
};

/**
 * The secret earlier versions used when APP_SECRET was unset. It is public (it was in this file), so it
 * is refused everywhere: anything signed with it could have been forged by anyone.
 */
export const DEVELOPMENT_SECRET = 'tunedrop-development-secret-change-me-in-production';

export class ConfigError extends Error {}

/**
 * Refuses a JOBS_CONCURRENCY_* variable that names no queue and no module (a typo would otherwise be
 * ignored silently), with one line naming it and the names it may take.
 */
export function checkJobsConcurrencyNames(
  config: Pick<ParsedConfig, 'jobsConcurrency'>,
  queues: readonly string[],
): void {
  const known = new Set<string>();
  for (const name of queues) {
    known.add(name.toUpperCase().replace(/[.-]/g, '_'));
    known.add((name.split('.')[0] ?? '').toUpperCase().replace(/-/g, '_'));
  }
  const unknown = Object.keys(config.jobsConcurrency).filter((key) => !known.has(key));
  if (unknown.length > 0) {
    throw new ConfigError(
      `Invalid configuration: ${unknown.map((key) => `JOBS_CONCURRENCY_${key}`).join(', ')}: no such queue or module (known: ${[...known].sort().join(', ')})`,
    );
  }
}

/** Parses the environment and resolves the secret (generated into DATA_DIR when APP_SECRET is unset). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return withAppSecret(parseConfig(env), { mayCreate: true });
}

/**
 * The secret for a parsed config: APP_SECRET when set, otherwise `DATA_DIR/app-secret`, created (random,
 * 0600, atomically) when missing and `mayCreate`; without it a missing file is a ConfigError.
 */
export function withAppSecret(config: ParsedConfig, options: { mayCreate: boolean }): Config {
  if (config.APP_SECRET) return { ...config, appSecret: config.APP_SECRET, appSecretSource: 'APP_SECRET' };
  return {
    ...config,
    appSecret: readOrCreateAppSecret(config.dataDir, options, (message) => new ConfigError(message)),
    appSecretSource: 'DATA_DIR',
  };
}

/** Parses the environment; throws a ConfigError whose message names each bad variable. Touches no file. */
export function parseConfig(env: NodeJS.ProcessEnv = process.env): ParsedConfig {
  const result = configSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration: ${lines.join('; ')}`);
  }
  const values = result.data;
  const isProduction = values.NODE_ENV === 'production';
  const appUrl = (values.APP_URL ?? `http://localhost:${values.PORT}`).replace(/\/$/, '');
  if (values.APP_SECRET === DEVELOPMENT_SECRET) {
    throw new ConfigError(
      'Invalid configuration: APP_SECRET: is the public development secret of earlier versions, which anyone can read; set at least 32 random characters (for example `openssl rand -base64 32`) or unset it to use a secret generated in DATA_DIR',
    );
  }
  if (!values.APP_SECRET && isProduction) {
    // Production may run several instances on one database: each needs the same secret, so it is set, not generated.
    throw new ConfigError(
      'Invalid configuration: APP_SECRET: required when NODE_ENV=production (at least 32 random characters, the same on every instance)',
    );
  }
  if (isProduction && values.E2E_FIXTURES_TOKEN) {
    throw new ConfigError(
      'Invalid configuration: E2E_FIXTURES_TOKEN: must not be set when NODE_ENV=production',
    );
  }
  if (values.TUNEDROP_ROLE === 'migrate' && !values.DATABASE_URL) {
    throw new ConfigError(
      'Invalid configuration: DATABASE_URL: required when TUNEDROP_ROLE=migrate (the embedded PGlite is migrated by the server that owns it, at start)',
    );
  }
  if (values.TUNEDROP_ROLE === 'web' || values.TUNEDROP_ROLE === 'worker') {
    // Separate web and worker processes share one database and one secret (record 160): the embedded
    // PGlite belongs to one process, and a secret generated per DATA_DIR would differ between them.
    const missing = (['DATABASE_URL', 'APP_SECRET'] as const).filter((key) => !values[key]);
    if (missing.length > 0) {
      throw new ConfigError(
        `Invalid configuration: ${missing.join(', ')}: required when TUNEDROP_ROLE=${values.TUNEDROP_ROLE} (web and worker processes share one PostgreSQL database and one secret)`,
      );
    }
  }
  if (values.METRICS_TOKEN && values.METRICS_TOKEN.length < 16) {
    throw new ConfigError('Invalid configuration: METRICS_TOKEN: must be at least 16 characters');
  }
  if (values.METRICS_ALLOW) {
    const parsed = parseAllowList(values.METRICS_ALLOW);
    if ('invalid' in parsed) {
      throw new ConfigError(
        `Invalid configuration: METRICS_ALLOW: "${parsed.invalid}" is not an IP address or CIDR (e.g. 10.0.0.0/8, ::1)`,
      );
    }
  }
  if (values.APP_SECRET && values.APP_SECRET.length < 32) {
    throw new ConfigError('Invalid configuration: APP_SECRET: must be at least 32 characters');
  }
  const s3Keys = [
    'S3_BUCKET',
    'S3_ENDPOINT',
    'S3_REGION',
    'S3_ACCESS_KEY_ID',
    'S3_SECRET_ACCESS_KEY',
  ] as const;
  const s3Set = s3Keys.filter((key) => values[key] !== undefined);
  if (s3Set.length > 0 && s3Set.length < s3Keys.length) {
    const missing = s3Keys.filter((key) => values[key] === undefined);
    throw new ConfigError(
      `Invalid configuration: ${missing.join(', ')}: required when any S3_* variable is set`,
    );
  }
  const jobsConcurrency: Record<string, number> = {};
  for (const [key, value] of Object.entries(env)) {
    const match = /^JOBS_CONCURRENCY_([A-Z0-9_]+)$/.exec(key);
    if (!match?.[1] || value === undefined || value.trim() === '') continue;
    const count = Number(value);
    if (!Number.isInteger(count) || count < 0 || count > 100) {
      throw new ConfigError(`Invalid configuration: ${key}: must be a whole number from 0 to 100`);
    }
    jobsConcurrency[match[1]] = count;
  }
  return {
    ...values,
    appUrl,
    jobsConcurrency,
    dataDir: path.resolve(values.DATA_DIR),
    deliveryFileRoot: path.resolve(values.DELIVERY_FILE_ROOT ?? path.join(values.DATA_DIR, 'targets')),
    isPaymentsSandboxAllowed: !values.STRIPE_SECRET_KEY && (!isProduction || values.PAYMENTS_SANDBOX === '1'),
  };
}
