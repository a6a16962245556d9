/**
 * Account page sections of the accounts feature (spec 01 §2, §5, §8): Profile Information, Email
 * Settings and Security (change password with the current one, two-factor). The Current Plan section
 * above them belongs to billing.
 */
import { AUTH_MESSAGES, changePasswordSchema, profileSchema } from '@tunedrop/shared/schemas/auth';
import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, PageLoader } from '../../../components/ui/card';
import { Field, Input } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';
import { authClient } from '../../../lib/auth-client';
import { useZodForm } from '../../../lib/use-zod-form';
import { useViewer, type Viewer } from '../../../lib/viewer';
import { useUpdateProfile } from '../api/account';
import { type AuthClientError, authErrorMessage } from '../lib/auth-errors';
import { TwoFactorSettings } from './two-factor-settings';

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Card>
      <section aria-labelledby={id} className="space-y-4">
        <h2 id={id} className="text-lg font-semibold text-white">
          {title}
        </h2>
        {children}
      </section>
    </Card>
  );
}

export function AccountSections() {
  const { data: viewer } = useViewer();
  if (!viewer) return <PageLoader />;
  return (
    <div className="space-y-6">
      <ProfileSection viewer={viewer} />
      <Section id="email-settings-heading" title="Email Settings">
        <Field id="account-email" label="Email">
          <Input
            id="account-email"
            type="email"
            value={viewer.user.email}
            disabled
            readOnly
            aria-describedby="account-email-hint"
          />
          <p id="account-email-hint" className="mt-1 text-xs text-zinc-400">
            {AUTH_MESSAGES.emailCannotChange}
          </p>
        </Field>
      </Section>
      <Section id="security-heading" title="Security">
        <ChangePasswordForm />
        <TwoFactorSettings isEnabled={viewer.user.twoFactorEnabled === true} />
      </Section>
    </div>
  );
}

function ProfileSection({ viewer }: { viewer: Viewer }) {
  const updateProfile = useUpdateProfile();
  const { register, handleSubmit, formState, reset } = useZodForm(profileSchema, {
    values: { fullName: viewer.profile.fullName, artistName: viewer.profile.artistName },
  });
  const { errors, isDirty } = formState;

  const onSubmit = handleSubmit(async (values) => {
    try {
      const { profile } = await updateProfile.mutateAsync(values);
      reset(profile);
      notify.success(AUTH_MESSAGES.profileUpdatedTitle, AUTH_MESSAGES.profileUpdatedDescription);
    } catch {
      notify.error(AUTH_MESSAGES.profileUpdateFailed);
    }
  });

  return (
    <Section id="profile-heading" title="Profile Information">
      <form
        noValidate
        onSubmit={onSubmit}
        className="grid gap-4 sm:grid-cols-2"
        aria-label="Profile Information"
      >
        <Field id="profile-full-name" label="Full name" error={errors.fullName?.message}>
          <Input
            id="profile-full-name"
            autoComplete="name"
            aria-invalid={Boolean(errors.fullName)}
            aria-describedby={errors.fullName ? 'profile-full-name-error' : undefined}
            {...register('fullName')}
          />
        </Field>
        <Field id="profile-artist-name" label="Artist name" error={errors.artistName?.message}>
          <Input
            id="profile-artist-name"
            aria-invalid={Boolean(errors.artistName)}
            aria-describedby={errors.artistName ? 'profile-artist-name-error' : undefined}
            {...register('artistName')}
          />
        </Field>
        <div className="sm:col-span-2">
          <Button type="submit" disabled={updateProfile.isPending || !isDirty}>
            {updateProfile.isPending ? 'Saving...' : 'Save changes'}
          </Button>
        </div>
      </form>
    </Section>
  );
}

function ChangePasswordForm() {
  const { register, handleSubmit, formState, reset } = useZodForm(changePasswordSchema, {
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });
  const { errors, isSubmitting } = formState;

  const onSubmit = handleSubmit(async (values) => {
    try {
      const { error } = await authClient.changePassword({
        currentPassword: values.currentPassword,
        newPassword: values.newPassword,
        // A changed password signs out every other device; this one keeps a fresh session.
        revokeOtherSessions: true,
      });
      if (error) {
        notify.error(authErrorMessage(error as AuthClientError, AUTH_MESSAGES.passwordChangeFailed));
        return;
      }
      reset();
      notify.success(AUTH_MESSAGES.passwordChanged, 'Your other devices have been signed out.');
    } catch {
      notify.error(AUTH_MESSAGES.passwordChangeFailed);
    }
  });

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-4" aria-label="Change password">
      <h3 className="font-semibold text-white">Change password</h3>
      <div className="grid gap-4 sm:grid-cols-3">
        <Field id="current-password" label="Current password" error={errors.currentPassword?.message}>
          <Input
            id="current-password"
            type="password"
            autoComplete="current-password"
            aria-invalid={Boolean(errors.currentPassword)}
            aria-describedby={errors.currentPassword ? 'current-password-error' : undefined}
            {...register('currentPassword')}
          />
        </Field>
        <Field id="new-password" label="New password" error={errors.newPassword?.message}>
          <Input
            id="new-password"
            type="password"
            autoComplete="new-password"
            aria-invalid={Boolean(errors.newPassword)}
            aria-describedby={errors.newPassword ? 'new-password-error' : undefined}
            {...register('newPassword')}
          />
        </Field>
        <Field id="confirm-new-password" label="Confirm new password" error={errors.confirmPassword?.message}>
          <Input
            id="confirm-new-password"
            type="password"
            autoComplete="new-password"
            aria-invalid={Boolean(errors.confirmPassword)}
            aria-describedby={errors.confirmPassword ? 'confirm-new-password-error' : undefined}
            {...register('confirmPassword')}
          />
        </Field>
      </div>
      <Button type="submit" disabled={isSubmitting}>
        {isSubmitting ? 'Updating...' : 'Update password'}
      </Button>
    </form>
  );
}
