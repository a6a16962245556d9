/** /forgot-password: asks for the address and always gives the same answer, so nobody learns who has an account. */
import { AUTH_MESSAGES, emailOnlySchema } from '@tunedrop/shared/schemas/auth';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Field, Input } from '../../../components/ui/input';
import { paths } from '../../../config/paths';
import { authClient } from '../../../lib/auth-client';
import { usePageTitle } from '../../../lib/use-page-title';
import { useZodForm } from '../../../lib/use-zod-form';
import { AuthShell, FormAlert } from '../components/auth-shell';
import { type AuthClientError, authErrorMessage } from '../lib/auth-errors';

export default function ForgotPasswordPage() {
  usePageTitle('Forgot password');
  const { register, handleSubmit, formState } = useZodForm(emailOnlySchema, {
    defaultValues: { email: '' },
    reValidateMode: 'onSubmit',
  });
  const fieldError = formState.errors.email?.message;
  const [error, setError] = useState<string | null>(null);
  const [isSent, setIsSent] = useState(false);

  const onSubmit = handleSubmit(async ({ email }) => {
    setError(null);
    try {
      const { error: failure } = await authClient.requestPasswordReset({
        email: email.trim(),
        redirectTo: paths.resetPassword,
      });
      if (failure) setError(authErrorMessage(failure as AuthClientError, AUTH_MESSAGES.loginUnexpected));
      else setIsSent(true);
    } catch {
      setError(AUTH_MESSAGES.loginUnexpected);
    }
  });
  const isBusy = formState.isSubmitting;

  return (
    <AuthShell
      title="Forgot password"
      subtitle="Enter the email address of your account and we will send you a link to choose a new password."
      footer={
        <Link
          to={paths.login}
          className="font-medium text-brand-300 underline underline-offset-2 hover:text-brand-200"
        >
          Back to sign in
        </Link>
      }
    >
      {isSent ? (
        <FormAlert tone="success">{AUTH_MESSAGES.resetRequested} The link is valid for one hour.</FormAlert>
      ) : (
        <form noValidate onSubmit={onSubmit} className="space-y-4" aria-label="Forgot password">
          <Field id="forgot-email" label="Email" error={fieldError}>
            <Input
              id="forgot-email"
              type="email"
              autoComplete="email"
              aria-invalid={Boolean(fieldError)}
              aria-describedby={fieldError ? 'forgot-email-error' : undefined}
              {...register('email')}
            />
          </Field>
          {error ? <FormAlert>{error}</FormAlert> : null}
          <Button type="submit" size="lg" className="w-full" disabled={isBusy}>
            {isBusy ? 'Sending...' : 'Send reset link'}
          </Button>
        </form>
      )}
    </AuthShell>
  );
}
