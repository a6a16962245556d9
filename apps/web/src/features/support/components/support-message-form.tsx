/** The Help form: subject and message, checked by the shared schema the server applies too. */
import {
  SUPPORT_LIMITS,
  SUPPORT_MESSAGES,
  type SupportMessageInput,
  supportMessageSchema,
} from '@tunedrop/shared/schemas/support';
import { Send } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Field, Input, Textarea } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';
import { ApiError, errorMessage } from '../../../lib/api';
import { formatDateTime } from '../../../lib/format';
import { useZodForm } from '../../../lib/use-zod-form';
import { useSendSupportMessage } from '../api/help-messages';

type FieldName = keyof SupportMessageInput;
const empty: SupportMessageInput = { subject: '', body: '' };

export function SupportMessageForm() {
  const send = useSendSupportMessage();
  const form = useZodForm(supportMessageSchema, { defaultValues: empty });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((values) =>
    send.mutate(values, {
      onSuccess: (thread) => {
        form.reset(empty);
        notify.success(SUPPORT_MESSAGES.sent, `We will reply by ${formatDateTime(thread.replyBy)}.`);
      },
      onError: (error) => {
        if (error instanceof ApiError && error.fields) {
          for (const [name, message] of Object.entries(error.fields))
            if (name in empty) form.setError(name as FieldName, { message });
        }
        notify.error(errorMessage(error, 'Failed to send your message.'));
      },
    }),
  );

  const fieldProps = (name: FieldName) => ({
    id: `support-${name}`,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `support-${name}-error` : undefined,
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Write to support">
      <Field id="support-subject" label="Subject" error={errors.subject?.message}>
        <Input
          {...fieldProps('subject')}
          {...form.register('subject')}
          maxLength={SUPPORT_LIMITS.subjectMaxLength}
        />
      </Field>
      <Field
        id="support-body"
        label="Message"
        error={errors.body?.message}
        hint={`Up to ${SUPPORT_LIMITS.messageMaxLength.toLocaleString('en-US')} characters.`}
      >
        <Textarea
          {...fieldProps('body')}
          {...form.register('body')}
          rows={6}
          maxLength={SUPPORT_LIMITS.messageMaxLength}
        />
      </Field>
      <Button type="submit" disabled={send.isPending}>
        <Send aria-hidden className="size-4" /> {send.isPending ? 'Sending...' : 'Send to support'}
      </Button>
    </form>
  );
}
