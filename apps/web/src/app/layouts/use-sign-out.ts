/**
 * Sign-out: local to this device (only this browser's session ends); 401, 403 and 404 answers are
 * ignored (spec 01 §8) because the session is gone either way. The other tabs hear of it (lib/auth-sync),
 * and the flag tells /login not to bounce a just-signed-out user back to the dashboard.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { notify } from '../../components/ui/toast';
import { paths } from '../../config/paths';
import { announceAuthChange, applyAuthEvent, SIGNED_OUT_FLAG } from '../../lib/auth-sync';

export { SIGNED_OUT_FLAG };

const IGNORED_STATUSES = new Set([401, 403, 404]);

export function useSignOut() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return async () => {
    let status: number | null = null;
    try {
      // better-auth's client (12 KB gzip) loads on the click, not with every dashboard page (record 210).
      const { authClient } = await import('../../lib/auth-client');
      const result = await authClient.signOut();
      status = result.error ? (result.error.status ?? 500) : 200;
    } catch {
      status = null;
    }
    if (status === null || (status >= 400 && !IGNORED_STATUSES.has(status))) {
      // The session cookie is httpOnly: if the server did not end it, this device is still signed in.
      notify.error('We could not sign you out. Check your connection and try again.');
      return;
    }
    sessionStorage.setItem(SIGNED_OUT_FLAG, '1');
    applyAuthEvent(queryClient, { kind: 'signed-out' });
    announceAuthChange('signed-out');
    navigate(paths.login, { replace: true });
  };
}
