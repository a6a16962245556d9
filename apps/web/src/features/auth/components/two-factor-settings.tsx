/**
 * Two-factor authentication in Security (beyond the spec: artists keep money here). Enrolment shows a
 * QR code, the secret for manual entry and the backup codes, and is only switched on once a code from
 * the app confirms it. Turning it off takes the password and a current code (or a backup code).
 */
import { useQueryClient } from '@tanstack/react-query';
import {
  AUTH_MESSAGES,
  twoFactorCodeSchema,
  twoFactorDisableSchema,
  twoFactorPasswordSchema,
} from '@tunedrop/shared/schemas/auth';
import { QRCodeSVG } from 'qrcode.react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Badge } from '../../../components/ui/card';
import { Dialog } from '../../../components/ui/dialog';
import { Field, Input } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';
import { authClient } from '../../../lib/auth-client';
import { firstErrorMessage, useZodForm } from '../../../lib/use-zod-form';
import { viewerQueryKey } from '../../../lib/viewer';
import { type AuthClientError, authErrorMessage } from '../lib/auth-errors';
import { FormAlert } from './auth-shell';

type Enrolment = { totpURI: string; backupCodes: string[] };

function secretOf(totpURI: string): string {
  try {
    return new URL(totpURI).searchParams.get('secret') ?? '';
  } catch {
    return '';
  }
}

export function TwoFactorSettings({ isEnabled }: { isEnabled: boolean }) {
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<'enable' | 'disable' | null>(null);
  const startForm = useZodForm(twoFactorPasswordSchema, { defaultValues: { password: '' } });
  const confirmForm = useZodForm(twoFactorCodeSchema, {
    defaultValues: { code: '' },
    reValidateMode: 'onSubmit',
  });
  const disableForm = useZodForm(twoFactorDisableSchema, {
    defaultValues: { code: '', password: '' },
    reValidateMode: 'onSubmit',
  });
  const startPassword = startForm.watch('password');
  const disablePassword = disableForm.watch('password');
  const showFirstError = (errors: object) => setError(firstErrorMessage(errors) ?? null);
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  function close() {
    setDialog(null);
    startForm.reset();
    confirmForm.reset();
    disableForm.reset();
    setEnrolment(null);
    setError(null);
    setIsBusy(false);
  }

  async function run(action: () => Promise<{ error: unknown }>, fallback: string): Promise<boolean> {
    setError(null);
    setIsBusy(true);
    try {
      const { error: failure } = await action();
      if (failure) {
        setError(authErrorMessage(failure as AuthClientError, fallback));
        return false;
      }
      return true;
    } catch {
      setError(fallback);
      return false;
    } finally {
      setIsBusy(false);
    }
  }

  const startEnrolment = startForm.handleSubmit(async ({ password }) => {
    let result: Enrolment | null = null;
    const isOk = await run(async () => {
      const answer = await authClient.twoFactor.enable({ password });
      if (answer.data && 'totpURI' in answer.data && answer.data.totpURI) {
        result = { totpURI: answer.data.totpURI, backupCodes: answer.data.backupCodes ?? [] };
      }
      return answer;
    }, 'Failed to start two-factor setup.');
    if (isOk && result) {
      setEnrolment(result);
      startForm.reset();
    }
  }, showFirstError);

  const confirmEnrolment = confirmForm.handleSubmit(async ({ code }) => {
    const isOk = await run(
      () => authClient.twoFactor.verifyTotp({ code }),
      AUTH_MESSAGES.twoFactorCodeInvalid,
    );
    if (isOk) {
      close();
      await queryClient.invalidateQueries({ queryKey: viewerQueryKey });
      notify.success('Two-factor authentication is on', 'You will be asked for a code when you sign in.');
    }
  }, showFirstError);

  const disable = disableForm.handleSubmit(async ({ password, code }) => {
    const isOk = await run(
      () =>
        authClient.$fetch('/two-factor/disable', {
          method: 'POST',
          body: { password, code },
        }),
      'Failed to turn off two-factor authentication.',
    );
    if (isOk) {
      close();
      await queryClient.invalidateQueries({ queryKey: viewerQueryKey });
      notify.success('Two-factor authentication is off');
    }
  }, showFirstError);

  return (
    <div className="space-y-3 border-t border-ink-700 pt-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h3 className="flex items-center gap-2 font-semibold text-white">
            Two-factor authentication
            <Badge tone={isEnabled ? 'green' : 'neutral'}>{isEnabled ? 'On' : 'Off'}</Badge>
          </h3>
          <p className="text-sm text-zinc-400">
            Protect your account and earnings with a code from an authenticator app when you sign in.
          </p>
        </div>
        {isEnabled ? (
          <Button variant="outline" onClick={() => setDialog('disable')}>
            Turn off
          </Button>
        ) : (
          <Button onClick={() => setDialog('enable')}>Turn on</Button>
        )}
      </div>

      <Dialog
        open={dialog === 'enable'}
        onOpenChange={(open) => (open ? setDialog('enable') : close())}
        title="Turn on two-factor authentication"
        description={
          enrolment
            ? 'Scan the QR code with your authenticator app, keep the backup codes somewhere safe, then enter the code the app shows.'
            : 'Enter your password to start.'
        }
      >
        {enrolment ? (
          <form noValidate onSubmit={confirmEnrolment} className="space-y-4" aria-label="Confirm two-factor">
            <div className="flex justify-center rounded-lg bg-white p-3">
              <QRCodeSVG value={enrolment.totpURI} size={176} title="QR code for your authenticator app" />
            </div>
            <p className="text-xs text-zinc-400">
              Can't scan it? Enter this key in the app:{' '}
              <code className="break-all text-zinc-200" data-testid="totp-secret">
                {secretOf(enrolment.totpURI)}
              </code>
            </p>
            <div>
              <p className="text-sm font-medium text-zinc-200">Backup codes</p>
              <p className="text-xs text-zinc-400">Each code signs you in once if you lose your phone.</p>
              <ul
                className="mt-2 grid grid-cols-2 gap-1 font-mono text-sm text-zinc-200"
                aria-label="Backup codes"
              >
                {enrolment.backupCodes.map((backupCode) => (
                  <li key={backupCode}>{backupCode}</li>
                ))}
              </ul>
            </div>
            <Field id="two-factor-confirm-code" label="Code from the app">
              <Input
                id="two-factor-confirm-code"
                autoComplete="one-time-code"
                inputMode="numeric"
                {...confirmForm.register('code')}
              />
            </Field>
            {error ? <FormAlert>{error}</FormAlert> : null}
            <Button type="submit" className="w-full" disabled={isBusy}>
              {isBusy ? 'Checking...' : 'Confirm and turn on'}
            </Button>
          </form>
        ) : (
          <form
            noValidate
            onSubmit={startEnrolment}
            className="space-y-4"
            aria-label="Start two-factor setup"
          >
            <Field id="two-factor-enable-password" label="Password">
              <Input
                id="two-factor-enable-password"
                type="password"
                autoComplete="current-password"
                {...startForm.register('password')}
              />
            </Field>
            {error ? <FormAlert>{error}</FormAlert> : null}
            <Button type="submit" className="w-full" disabled={isBusy || startPassword === ''}>
              {isBusy ? 'Starting...' : 'Continue'}
            </Button>
          </form>
        )}
      </Dialog>

      <Dialog
        open={dialog === 'disable'}
        onOpenChange={(open) => (open ? setDialog('disable') : close())}
        title="Turn off two-factor authentication"
        description="Enter your password and a code from your authenticator app (or a backup code)."
      >
        <form noValidate onSubmit={disable} className="space-y-4" aria-label="Turn off two-factor">
          <Field id="two-factor-disable-password" label="Password">
            <Input
              id="two-factor-disable-password"
              type="password"
              autoComplete="current-password"
              {...disableForm.register('password')}
            />
          </Field>
          <Field id="two-factor-disable-code" label="Authentication code">
            <Input
              id="two-factor-disable-code"
              autoComplete="one-time-code"
              {...disableForm.register('code')}
            />
          </Field>
          {error ? <FormAlert>{error}</FormAlert> : null}
          <Button
            type="submit"
            variant="danger"
            className="w-full"
            disabled={isBusy || disablePassword === ''}
          >
            {isBusy ? 'Turning off...' : 'Turn off'}
          </Button>
        </form>
      </Dialog>
    </div>
  );
}
