/** Every environment variable the server reads, parsed once at start with zod. */
import path from 'node:path';
import { z } from 'zod';

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value));

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
  SMTP_TIMEOUT_SECONDS: z.coerce.number({ message: 'must be a number of seconds' }).positive().default(30),
  DDEX_SENDER_PARTY_ID: z.string().default('PADPIDA0000000000T'),
  DDEX_SENDER_NAME: z.string().default('Tunedrop'),
  DDEX_RECIPIENT_PARTY_ID: z.string().default('PADPIDA0000000000R'),
  DDEX_RECIPIENT_NAME: z.string().default('Distribution Partner'),
  RATE_LIMITS: z.enum(['on', 'off']).default('on'),
  TRUST_PROXY: z.enum(['0', '1']).default('0'),
  E2E_FIXTURES_TOKEN: optionalString,
});

export type Config = z.infer<typeof configSchema> & {
  appUrl: string;
  appSecret: string;
  dataDir: string;
  isPaymentsSandboxAllowed: boolean;
  /** True when sessions and signatures use the public development secret (APP_SECRET unset; loopback only). */
  isDevelopmentSecret: boolean;
};

/** The secret used when APP_SECRET is unset: public, so only ever accepted on a loopback APP_URL outside production. */
export const DEVELOPMENT_SECRET = 'tunedrop-development-secret-change-me-in-production';

/** localhost, *.localhost, 127.0.0.0/8 and ::1: addresses only this machine can reach. */
export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '::1' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  );
}

export class ConfigError extends Error {}

/** Parses the environment; throws a ConfigError whose message names each bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = configSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration: ${lines.join('; ')}`);
  }
  const values = result.data;
  const isProduction = values.NODE_ENV === 'production';
  const appUrl = (values.APP_URL ?? `http://localhost:${values.PORT}`).replace(/\/$/, '');
  const isDevelopmentSecret = !values.APP_SECRET || values.APP_SECRET === DEVELOPMENT_SECRET;
  if (isDevelopmentSecret && (isProduction || !isLoopbackUrl(appUrl))) {
    throw new ConfigError(
      'Invalid configuration: APP_SECRET: required (at least 32 random characters, not the development secret) when NODE_ENV=production or APP_URL is not a loopback address',
    );
  }
  if (isProduction && values.E2E_FIXTURES_TOKEN) {
    throw new ConfigError(
      'Invalid configuration: E2E_FIXTURES_TOKEN: must not be set when NODE_ENV=production',
    );
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
  return {
    ...values,
    appUrl,
    // A fixed development secret keeps sessions valid across restarts of `npm start` on this machine only.
    appSecret: values.APP_SECRET ?? DEVELOPMENT_SECRET,
    isDevelopmentSecret,
    dataDir: path.resolve(values.DATA_DIR),
    isPaymentsSandboxAllowed: !values.STRIPE_SECRET_KEY && (!isProduction || values.PAYMENTS_SANDBOX === '1'),
  };
}
