import type { AppEnv } from '../../lib/context';
export declare const CLIENT_IP_HEADER = 'x-tunedrop-client-ip';
export declare const authRoutes: import('hono/hono-base').HonoBase<
  AppEnv,
  {
    '/signup': {
      $post: {
        input: {
          json: {
            email: string;
            fullName: string;
            artistName: string;
            password: string;
            confirmPassword: string;
            plan: 'basic' | 'pro';
          };
        };
        output: {
          email: string;
          plan: 'basic' | 'pro';
        };
        outputFormat: 'json';
        status: 201;
      };
    };
  } & {
    '/resend-verification': {
      $post: {
        input: {
          json: {
            email: string;
          };
        };
        output: {
          status: true;
        };
        outputFormat: 'json';
        status: 200;
      };
    };
  } & {
    '/*': {
      $get: {
        input: {};
        output: {};
        outputFormat: string;
        status: import('hono/utils/http-status').StatusCode;
      };
      $post: {
        input: {};
        output: {};
        outputFormat: string;
        status: import('hono/utils/http-status').StatusCode;
      };
    };
  },
  '/',
  '/*'
>;
export declare const meRoutes: import('hono/hono-base').HonoBase<
  AppEnv,
  {
    '/': {
      $get: {
        input: {};
        output: {
          user: {
            twoFactorEnabled: boolean;
            id: string;
            email: string;
            name: string;
            emailVerified: boolean;
          };
          profile: {
            subscriptionEnd: string | null;
            plan: string;
            fullName: string;
            artistName: string;
            banned: boolean;
            banReason: string | null;
            subscriptionStatus: string;
          };
          roles: ('admin' | 'moderator' | 'free_access')[];
        };
        outputFormat: 'json';
        status: 200;
      };
    };
  } & {
    '/profile': {
      $patch: {
        input: {
          json: {
            fullName: string;
            artistName: string;
          };
        };
        output: {
          profile: {
            fullName: string;
            artistName: string;
          };
        };
        outputFormat: 'json';
        status: 200;
      };
    };
  } & {
    '/stats': {
      $get: {
        input: {};
        output: {
          totalReleases: number;
        };
        outputFormat: 'json';
        status: 200;
      };
    };
  },
  '/',
  '/stats'
>;
