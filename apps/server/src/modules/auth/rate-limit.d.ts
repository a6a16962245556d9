import type { DbOrTx } from '../../db/client';
export type LimitRule = {
  windowSeconds: number;
  max: number;
};
/** The limits of the accounts module; better-auth adds its per-address limits on its own endpoints (auth.ts). */
export declare const ACCOUNT_LIMITS: {
  readonly signupPerAddress: {
    readonly windowSeconds: 300;
    readonly max: 5;
  };
  readonly signupPerEmail: {
    readonly windowSeconds: 300;
    readonly max: 3;
  };
  readonly signInPerEmail: {
    readonly windowSeconds: 300;
    readonly max: 10;
  };
  readonly resetPerEmail: {
    readonly windowSeconds: 300;
    readonly max: 3;
  };
  readonly resendPerAddress: {
    readonly windowSeconds: 300;
    readonly max: 5;
  };
  readonly resendPerEmail: {
    readonly windowSeconds: 300;
    readonly max: 3;
  };
};
export type LimitResult = {
  isAllowed: boolean;
  retryAfterSeconds: number;
};
/** Counts one attempt under `key` in a fixed window that starts at the first attempt; atomic under concurrency. */
export declare function consumeLimit(db: DbOrTx, key: string, rule: LimitRule): Promise<LimitResult>;
export declare function limitKey(action: string, scope: 'address' | 'email', value: string): string;
/** The 429 message: says who is limited and how long to wait, in whole minutes when it is a minute or more. */
export declare function tooManyAttemptsMessage(scope: 'address' | 'email', retryAfterSeconds: number): string;
