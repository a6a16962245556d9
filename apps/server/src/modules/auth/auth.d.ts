import type { Config } from '../../config';
import type { Db } from '../../db/client';
export type AuthHooks = {
  onMailQueued?: () => void;
};
export declare function createAuth(
  config: Config,
  db: Db,
  hooks?: AuthHooks,
): import('better-auth').Auth<{
  appName: string;
  baseURL: string;
  basePath: string;
  secret: string;
  trustedOrigins: string[];
  database: (
    options: import('better-auth').BetterAuthOptions,
  ) => import('better-auth').DBAdapter<import('better-auth').BetterAuthOptions>;
  advanced: {
    cookiePrefix: string;
    database: {
      generateId: () => `${string}-${string}-${string}-${string}-${string}`;
    };
    useSecureCookies: boolean;
    ipAddress: {
      ipAddressHeaders: string[];
    };
  };
  session: {
    expiresIn: number;
    updateAge: number;
  };
  emailAndPassword: {
    enabled: true;
    disableSignUp: true;
    requireEmailVerification: true;
    minPasswordLength: number;
    maxPasswordLength: number;
    revokeSessionsOnPasswordReset: true;
    resetPasswordTokenExpiresIn: number;
    sendResetPassword: ({
      user,
      url,
    }: {
      user: import('better-auth').User;
      url: string;
      token: string;
    }) => Promise<void>;
  };
  emailVerification: {
    sendOnSignIn: false;
    autoSignInAfterVerification: true;
    expiresIn: number;
    sendVerificationEmail: ({
      user,
      url,
    }: {
      user: import('better-auth').User;
      url: string;
      token: string;
    }) => Promise<void>;
  };
  rateLimit: {
    enabled: boolean;
    storage: 'database';
    window: number;
    max: number;
    customRules: {
      '/sign-in/email': {
        window: number;
        max: number;
      };
      '/request-password-reset': {
        window: number;
        max: number;
      };
      '/send-verification-email': {
        window: number;
        max: number;
      };
      '/two-factor/*': {
        window: number;
        max: number;
      };
    };
  };
  hooks: {
    before: import('better-call').Middleware<
      import('better-call').MiddlewareOptions,
      (
        inputContext: import('better-call').MiddlewareInputContext<import('better-call').MiddlewareOptions>,
      ) => Promise<void>
    >;
  };
  plugins: [
    {
      id: 'two-factor';
      version: string;
      shouldRequireTwoFactor: (ctx: import('better-auth').GenericEndpointContext) => Promise<boolean>;
      endpoints: {
        enableTwoFactor: import('better-call').StrictEndpoint<
          '/two-factor/enable',
          {
            method: 'POST';
            body:
              | import('zod').ZodObject<
                  {
                    password: import('zod').ZodOptional<import('zod').ZodString>;
                    method: import('zod').ZodDefault<
                      import('zod').ZodEnum<{
                        totp: 'totp';
                        otp: 'otp';
                      }>
                    >;
                    issuer: import('zod').ZodOptional<import('zod').ZodString>;
                  },
                  import('zod/v4/core').$strip
                >
              | import('zod').ZodObject<
                  {
                    password: import('zod').ZodString;
                    method: import('zod').ZodDefault<
                      import('zod').ZodEnum<{
                        totp: 'totp';
                        otp: 'otp';
                      }>
                    >;
                    issuer: import('zod').ZodOptional<import('zod').ZodString>;
                  },
                  import('zod/v4/core').$strip
                >;
            use: import('better-call').Middleware<
              import('better-call').MiddlewareOptions,
              (
                inputContext: import('better-call').MiddlewareInputContext<
                  import('better-call').MiddlewareOptions
                >,
              ) => Promise<{
                session: {
                  session: Record<string, any> & {
                    id: string;
                    createdAt: Date;
                    updatedAt: Date;
                    userId: string;
                    expiresAt: Date;
                    token: string;
                    ipAddress?: string | null | undefined;
                    userAgent?: string | null | undefined;
                  };
                  user: Record<string, any> & {
                    id: string;
                    createdAt: Date;
                    updatedAt: Date;
                    email: string;
                    emailVerified: boolean;
                    name: string;
                    image?: string | null | undefined;
                  };
                };
              }>
            >[];
            metadata: {
              openapi: {
                summary: string;
                description: string;
                responses: {
                  200: {
                    description: string;
                    content: {
                      'application/json': {
                        schema: {
                          type: 'object';
                          properties: {
                            method: {
                              type: string;
                              enum: string[];
                              description: string;
                            };
                            totpURI: {
                              type: string;
                              description: string;
                            };
                            backupCodes: {
                              type: string;
                              items: {
                                type: string;
                              };
                              description: string;
                            };
                          };
                          required: string[];
                        };
                      };
                    };
                  };
                };
              };
            };
          },
          | {
              method: 'otp';
            }
          | {
              method: 'totp';
              totpURI: string;
              backupCodes: string[];
            }
        >;
        disableTwoFactor: import('better-call').StrictEndpoint<
          '/two-factor/disable',
          {
            method: 'POST';
            body:
              | import('zod').ZodObject<
                  {
                    password: import('zod').ZodOptional<import('zod').ZodString>;
                  },
                  import('zod/v4/core').$strip
                >
              | import('zod').ZodObject<
                  {
                    password: import('zod').ZodString;
                  },
                  import('zod/v4/core').$strip
                >;
            use: import('better-call').Middleware<
              import('better-call').MiddlewareOptions,
              (
                inputContext: import('better-call').MiddlewareInputContext<
                  import('better-call').MiddlewareOptions
                >,
              ) => Promise<{
                session: {
                  session: Record<string, any> & {
                    id: string;
                    createdAt: Date;
                    updatedAt: Date;
                    userId: string;
                    expiresAt: Date;
                    token: string;
                    ipAddress?: string | null | undefined;
                    userAgent?: string | null | undefined;
                  };
                  user: Record<string, any> & {
                    id: string;
                    createdAt: Date;
                    updatedAt: Date;
                    email: string;
                    emailVerified: boolean;
                    name: string;
                    image?: string | null | undefined;
                  };
                };
              }>
            >[];
            metadata: {
              openapi: {
                summary: string;
                description: string;
                responses: {
                  200: {
                    description: string;
                    content: {
                      'application/json': {
                        schema: {
                          type: 'object';
                          properties: {
                            status: {
                              type: string;
                            };
                          };
                        };
                      };
                    };
                  };
                };
              };
            };
          },
          {
            status: boolean;
          }
        >;
        verifyBackupCode: import('better-call').StrictEndpoint<
          '/two-factor/verify-backup-code',
          {
            method: 'POST';
            body: import('zod').ZodObject<
              {
                code: import('zod').ZodString;
                disableSession: import('zod').ZodOptional<import('zod').ZodBoolean>;
                trustDevice: import('zod').ZodOptional<import('zod').ZodBoolean>;
              },
              import('zod/v4/core').$strip
            >;
            metadata: {
              openapi: {
                description: string;
                responses: {
                  '200': {
                    description: string;
                    content: {
                      'application/json': {
                        schema: {
                          type: 'object';
                          properties: {
                            user: {
                              type: string;
                              properties: {
                                id: {
                                  type: string;
                                  description: string;
                                };
                                email: {
                                  type: string;
                                  format: string;
                                  nullable: boolean;
                                  description: string;
                                };
                                emailVerified: {
                                  type: string;
                                  nullable: boolean;
                                  description: string;
                                };
                                name: {
                                  type: string;
                                  nullable: boolean;
                                  description: string;
                                };
                                image: {
                                  type: string;
                                  format: string;
                                  nullable: boolean;
                                  description: string;
                                };
                                twoFactorEnabled: {
                                  type: string;
                                  description: string;
                                };
                                createdAt: {
                                  type: string;
                                  format: string;
                                  description: string;
                                };
                                updatedAt: {
                                  type: string;
                                  format: string;
                                  description: string;
                                };
                              };
                              required: string[];
                              description: string;
                            };
                            session: {
                              type: string;
                              properties: {
                                token: {
                                  type: string;
                                  description: string;
                                };
                                userId: {
                                  type: string;
                                  description: string;
                                };
                                createdAt: {
                                  type: string;
                                  format: string;
                                  description: string;
                                };
                                expiresAt: {
                                  type: string;
                                  format: string;
                                  description: string;
                                };
                              };
                              required: string[];
                              description: string;
                            };
                          };
                          required: string[];
                        };
                      };
                    };
                  };
                };
              };
            };
          },
          {
            token: string | undefined;
            user:
              | ({
                  id: string;
                  createdAt: Date;
                  updatedAt: Date;
                  email: string;
                  emailVerified: boolean;
                  name: string;
                  image?: string | null | undefined;
                } & Record<string, any>)
              | import('better-auth/plugins').UserWithTwoFactor;
          }
        >;
        generateBackupCodes: import('better-call').StrictEndpoint<
          '/two-factor/generate-backup-codes',
          {
            method: 'POST';
            body:
              | import('zod').ZodObject<
                  {
                    password: import('zod').ZodOptional<import('zod').ZodString>;
                  },
                  import('zod/v4/core').$strip
                >
              | import('zod').ZodObject<
                  {
                    password: import('zod').ZodString;
                  },
                  import('zod/v4/core').$strip
                >;
            use: import('better-call').Middleware<
              import('better-call').MiddlewareOptions,
              (
                inputContext: import('better-call').MiddlewareInputContext<
                  import('better-call').MiddlewareOptions
                >,
              ) => Promise<{
                session: {
                  session: Record<string, any> & {
                    id: string;
                    createdAt: Date;
                    updatedAt: Date;
                    userId: string;
                    expiresAt: Date;
                    token: string;
                    ipAddress?: string | null | undefined;
                    userAgent?: string | null | undefined;
                  };
                  user: Record<string, any> & {
                    id: string;
                    createdAt: Date;
                    updatedAt: Date;
                    email: string;
                    emailVerified: boolean;
                    name: string;
                    image?: string | null | undefined;
                  };
                };
              }>
            >[];
            metadata: {
              openapi: {
                description: string;
                responses: {
                  '200': {
                    description: string;
                    content: {
                      'application/json': {
                        schema: {
                          type: 'object';
                          properties: {
                            status: {
                              type: string;
                              description: string;
                              enum: boolean[];
                            };
                            backupCodes: {
                              type: string;
                              items: {
                                type: string;
                              };
                              description: string;
                            };
                          };
                          required: string[];
                        };
                      };
                    };
                  };
                };
              };
            };
          },
          {
            status: boolean;
            backupCodes: string[];
          }
        >;
        viewBackupCodes: import('better-call').StrictEndpoint<
          string,
          {
            method: 'POST';
            body: import('zod').ZodObject<
              {
                userId: import('zod').ZodCoercedString<unknown>;
              },
              import('zod/v4/core').$strip
            >;
          },
          {
            status: boolean;
            backupCodes: string[];
          }
        >;
        sendTwoFactorOTP: import('better-call').StrictEndpoint<
          '/two-factor/send-otp',
          {
            method: 'POST';
            body: import('zod').ZodOptional<
              import('zod').ZodObject<
                {
                  trustDevice: import('zod').ZodOptional<import('zod').ZodBoolean>;
                },
                import('zod/v4/core').$strip
              >
            >;
            metadata: {
              openapi: {
                summary: string;
                description: string;
                responses: {
                  200: {
                    description: string;
                    content: {
                      'application/json': {
                        schema: {
                          type: 'object';
                          properties: {
                            status: {
                              type: string;
                            };
                          };
                        };
                      };
                    };
                  };
                };
              };
            };
          },
          {
            status: boolean;
          }
        >;
        verifyTwoFactorOTP: import('better-call').StrictEndpoint<
          '/two-factor/verify-otp',
          {
            method: 'POST';
            body: import('zod').ZodObject<
              {
                code: import('zod').ZodString;
                trustDevice: import('zod').ZodOptional<import('zod').ZodBoolean>;
              },
              import('zod/v4/core').$strip
            >;
            metadata: {
              openapi: {
                summary: string;
                description: string;
                responses: {
                  '200': {
                    description: string;
                    content: {
                      'application/json': {
                        schema: {
                          type: 'object';
                          properties: {
                            token: {
                              type: string;
                              description: string;
                            };
                            user: {
                              type: string;
                              properties: {
                                id: {
                                  type: string;
                                  description: string;
                                };
                                email: {
                                  type: string;
                                  format: string;
                                  nullable: boolean;
                                  description: string;
                                };
                                emailVerified: {
                                  type: string;
                                  nullable: boolean;
                                  description: string;
                                };
                                name: {
                                  type: string;
                                  nullable: boolean;
                                  description: string;
                                };
                                image: {
                                  type: string;
                                  format: string;
                                  nullable: boolean;
                                  description: string;
                                };
                                createdAt: {
                                  type: string;
                                  format: string;
                                  description: string;
                                };
                                updatedAt: {
                                  type: string;
                                  format: string;
                                  description: string;
                                };
                              };
                              required: string[];
                              description: string;
                            };
                          };
                          required: string[];
                        };
                      };
                    };
                  };
                };
              };
            };
          },
          | {
              token: string;
              user: import('better-auth/plugins').UserWithTwoFactor;
            }
          | {
              token: string;
              user: {
                id: string;
                createdAt: Date;
                updatedAt: Date;
                email: string;
                emailVerified: boolean;
                name: string;
                image?: string | null | undefined;
              } & Record<string, any>;
            }
        >;
        generateTOTP: import('better-call').StrictEndpoint<
          string,
          {
            method: 'POST';
            body: import('zod').ZodObject<
              {
                secret: import('zod').ZodString;
              },
              import('zod/v4/core').$strip
            >;
            metadata: {
              openapi: {
                summary: string;
                description: string;
                responses: {
                  200: {
                    description: string;
                    content: {
                      'application/json': {
                        schema: {
                          type: 'object';
                          properties: {
                            code: {
                              type: string;
                            };
                          };
                        };
                      };
                    };
                  };
                };
              };
            };
          },
          {
            code: string;
          }
        >;
        getTOTPURI: import('better-call').StrictEndpoint<
          '/two-factor/get-totp-uri',
          {
            method: 'POST';
            use: import('better-call').Middleware<
              import('better-call').MiddlewareOptions,
              (
                inputContext: import('better-call').MiddlewareInputContext<
                  import('better-call').MiddlewareOptions
                >,
              ) => Promise<{
                session: {
                  session: Record<string, any> & {
                    id: string;
                    createdAt: Date;
                    updatedAt: Date;
                    userId: string;
                    expiresAt: Date;
                    token: string;
                    ipAddress?: string | null | undefined;
                    userAgent?: string | null | undefined;
                  };
                  user: Record<string, any> & {
                    id: string;
                    createdAt: Date;
                    updatedAt: Date;
                    email: string;
                    emailVerified: boolean;
                    name: string;
                    image?: string | null | undefined;
                  };
                };
              }>
            >[];
            body:
              | import('zod').ZodObject<
                  {
                    password: import('zod').ZodOptional<import('zod').ZodString>;
                  },
                  import('zod/v4/core').$strip
                >
              | import('zod').ZodObject<
                  {
                    password: import('zod').ZodString;
                  },
                  import('zod/v4/core').$strip
                >;
            metadata: {
              openapi: {
                summary: string;
                description: string;
                responses: {
                  200: {
                    description: string;
                    content: {
                      'application/json': {
                        schema: {
                          type: 'object';
                          properties: {
                            totpURI: {
                              type: string;
                            };
                          };
                        };
                      };
                    };
                  };
                };
              };
            };
          },
          {
            totpURI: string;
          }
        >;
        verifyTOTP: import('better-call').StrictEndpoint<
          '/two-factor/verify-totp',
          {
            method: 'POST';
            body: import('zod').ZodObject<
              {
                code: import('zod').ZodString;
                trustDevice: import('zod').ZodOptional<import('zod').ZodBoolean>;
              },
              import('zod/v4/core').$strip
            >;
            metadata: {
              openapi: {
                summary: string;
                description: string;
                responses: {
                  200: {
                    description: string;
                    content: {
                      'application/json': {
                        schema: {
                          type: 'object';
                          properties: {
                            status: {
                              type: string;
                            };
                          };
                        };
                      };
                    };
                  };
                };
              };
            };
          },
          | {
              token: string;
              user: import('better-auth/plugins').UserWithTwoFactor;
            }
          | {
              token: string;
              user: {
                id: string;
                createdAt: Date;
                updatedAt: Date;
                email: string;
                emailVerified: boolean;
                name: string;
                image?: string | null | undefined;
              } & Record<string, any>;
            }
        >;
      };
      options: NoInfer<{
        issuer: string;
      }>;
      hooks: {
        after: {
          matcher(context: import('better-auth').HookEndpointContext): boolean;
          handler: import('better-call').Middleware<
            import('better-call').MiddlewareOptions,
            (
              inputContext: import('better-call').MiddlewareInputContext<
                import('better-call').MiddlewareOptions
              >,
            ) => Promise<
              | {
                  twoFactorRedirect: boolean;
                  twoFactorMethods: string[];
                }
              | undefined
            >
          >;
        }[];
      };
      schema: {
        user: {
          fields: {
            twoFactorEnabled: {
              type: 'boolean';
              required: false;
              defaultValue: false;
              input: false;
            };
          };
        };
        twoFactor: {
          fields: {
            secret: {
              type: 'string';
              required: true;
              returned: false;
              index: true;
            };
            backupCodes: {
              type: 'string';
              required: true;
              returned: false;
            };
            userId: {
              type: 'string';
              required: true;
              returned: false;
              references: {
                model: string;
                field: string;
              };
              index: true;
            };
            verified: {
              type: 'boolean';
              required: false;
              defaultValue: true;
              input: false;
            };
            failedVerificationCount: {
              type: 'number';
              required: false;
              defaultValue: number;
              input: false;
              returned: false;
            };
            lockedUntil: {
              type: 'date';
              required: false;
              input: false;
              returned: false;
            };
          };
        };
      };
      rateLimit: {
        pathMatcher(path: string): boolean;
        window: number;
        max: number;
      }[];
      $ERROR_CODES: {
        OTP_NOT_ENABLED: import('better-auth').RawError<'OTP_NOT_ENABLED'>;
        OTP_NOT_CONFIGURED: import('better-auth').RawError<'OTP_NOT_CONFIGURED'>;
        OTP_HAS_EXPIRED: import('better-auth').RawError<'OTP_HAS_EXPIRED'>;
        TOTP_NOT_ENABLED: import('better-auth').RawError<'TOTP_NOT_ENABLED'>;
        TOTP_ALREADY_ENABLED: import('better-auth').RawError<'TOTP_ALREADY_ENABLED'>;
        TOTP_NOT_CONFIGURED: import('better-auth').RawError<'TOTP_NOT_CONFIGURED'>;
        TWO_FACTOR_NOT_ENABLED: import('better-auth').RawError<'TWO_FACTOR_NOT_ENABLED'>;
        BACKUP_CODES_NOT_ENABLED: import('better-auth').RawError<'BACKUP_CODES_NOT_ENABLED'>;
        INVALID_BACKUP_CODE: import('better-auth').RawError<'INVALID_BACKUP_CODE'>;
        INVALID_CODE: import('better-auth').RawError<'INVALID_CODE'>;
        TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: import('better-auth').RawError<'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE'>;
        ACCOUNT_TEMPORARILY_LOCKED: import('better-auth').RawError<'ACCOUNT_TEMPORARILY_LOCKED'>;
        INVALID_TWO_FACTOR_COOKIE: import('better-auth').RawError<'INVALID_TWO_FACTOR_COOKIE'>;
      };
    },
  ];
}>;
export type Auth = ReturnType<typeof createAuth>;
