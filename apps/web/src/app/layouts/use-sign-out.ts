/** Sign-out: local to this device; 401, 403 and 404 answers are ignored (spec 01 §8). */
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { authClient } from '../../lib/auth-client';

export const SIGNED_OUT_FLAG = 'tunedrop:signed-out';

export function useSignOut() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return async () => {
    try {
      await authClient.signOut();
    } catch {
      // The session may already be gone on the server; signing out locally is what matters.
    }
    sessionStorage.setItem(SIGNED_OUT_FLAG, '1');
    queryClient.clear();
    navigate(paths.login, { replace: true });
  };
}
