/** The better-auth browser client (cookie sessions; nothing is kept in localStorage). */
import { twoFactorClient } from 'better-auth/client/plugins';
import { createAuthClient } from 'better-auth/react';

export const authClient = createAuthClient({
  basePath: '/api/auth',
  plugins: [twoFactorClient()],
});
