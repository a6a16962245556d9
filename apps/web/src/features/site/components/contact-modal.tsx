/**
 * The Contact Us modal (spec 01 §2, §4, §5): Name*, Artist/Label/Company Name*, a list of links
 * (the first cannot be removed), Email Address*. The browser's own checks guard the fields (the spec
 * wants no custom messages); the server checks them again. States: idle, 'Sending...',
 * 'Message Sent!' (closes after 2 s and resets), 'Error - Try Again' (data kept).
 */
import { CONTACT_CLOSE_DELAY_MS, CONTACT_LIMITS } from '@tunedrop/shared/schemas/site-limits';
import { Plus, Trash2 } from 'lucide-react';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Input, Label } from '../../../components/ui/input';
import { ApiError } from '../../../lib/api';
import { sendContactRequest } from '../api/send-contact-request';

type SubmitStatus = 'idle' | 'sending' | 'success' | 'error';
type LinkEntry = { key: number; value: string };
type ContactForm = { name: string; companyName: string; email: string; links: LinkEntry[] };

let nextLinkKey = 0;
const emptyLink = (): LinkEntry => ({ key: nextLinkKey++, value: '' });
const emptyForm = (): ContactForm => ({ name: '', companyName: '', email: '', links: [emptyLink()] });

const submitLabels: Record<SubmitStatus, string> = {
  idle: 'Send Message',
  sending: 'Sending...',
  success: 'Message Sent!',
  error: 'Error - Try Again',
};

/** What went wrong, when the server said so in words a visitor can act on (validation, rate limit). */
function failureDetail(error: unknown): string {
  if (error instanceof ApiError && (error.status === 422 || error.status === 429)) return error.message;
  return 'Your message could not be sent. Please check your connection and try again.';
}

export function ContactModal({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [form, setForm] = useState<ContactForm>(emptyForm);
  const [status, setStatus] = useState<SubmitStatus>('idle');
  const [detail, setDetail] = useState<string | null>(null);
  const closeTimer = useRef<number | undefined>(undefined);
  const id = useId();

  useEffect(() => () => window.clearTimeout(closeTimer.current), []);

  const isBusy = status === 'sending' || status === 'success';
  const update = (field: 'name' | 'companyName' | 'email', value: string) =>
    setForm((current) => ({ ...current, [field]: value }));
  const updateLink = (key: number, value: string) =>
    setForm((current) => ({
      ...current,
      links: current.links.map((link) => (link.key === key ? { ...link, value } : link)),
    }));
  const addLink = () =>
    setForm((current) =>
      current.links.length >= CONTACT_LIMITS.linksMax
        ? current
        : { ...current, links: [...current.links, emptyLink()] },
    );
  const removeLink = (key: number) =>
    setForm((current) => ({ ...current, links: current.links.filter((link) => link.key !== key) }));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isBusy) return;
    setStatus('sending');
    setDetail(null);
    try {
      await sendContactRequest({
        name: form.name,
        companyName: form.companyName,
        email: form.email,
        links: form.links.map((link) => link.value.trim()).filter((link) => link.length > 0),
      });
      setStatus('success');
      closeTimer.current = window.setTimeout(() => {
        onOpenChange(false);
        setForm(emptyForm());
        setStatus('idle');
      }, CONTACT_CLOSE_DELAY_MS);
    } catch (error) {
      setStatus('error');
      setDetail(failureDetail(error));
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Contact Us"
      description="Tell us who you are and where we can hear your music. Our team replies within 24 hours."
    >
      <form onSubmit={onSubmit} className="space-y-4">
        <div>
          <Label htmlFor={`${id}-name`}>
            Name<span aria-hidden="true">*</span>
          </Label>
          <Input
            id={`${id}-name`}
            name="name"
            autoComplete="name"
            required
            maxLength={CONTACT_LIMITS.nameMaxLength}
            value={form.name}
            onChange={(event) => update('name', event.target.value)}
          />
        </div>
        <div>
          <Label htmlFor={`${id}-company`}>
            Artist/Label/Company Name<span aria-hidden="true">*</span>
          </Label>
          <Input
            id={`${id}-company`}
            name="companyName"
            autoComplete="organization"
            required
            maxLength={CONTACT_LIMITS.companyNameMaxLength}
            value={form.companyName}
            onChange={(event) => update('companyName', event.target.value)}
          />
        </div>
        <fieldset>
          <legend className="mb-1 block text-sm font-medium text-zinc-200">Website or Social Links</legend>
          <ul className="space-y-2">
            {form.links.map((link, index) => (
              <li key={link.key} className="flex gap-2">
                <Input
                  type="url"
                  placeholder="https://"
                  aria-label={`Link ${index + 1}`}
                  maxLength={CONTACT_LIMITS.linkMaxLength}
                  pattern="https?://.+"
                  title="A web address starting with http:// or https://"
                  value={link.value}
                  onChange={(event) => updateLink(link.key, event.target.value)}
                />
                {index > 0 ? (
                  <Button
                    variant="ghost"
                    className="shrink-0 px-3"
                    aria-label={`Remove link ${index + 1}`}
                    onClick={() => removeLink(link.key)}
                  >
                    <Trash2 aria-hidden className="size-4" />
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
          {form.links.length < CONTACT_LIMITS.linksMax ? (
            <Button variant="outline" size="sm" className="mt-2" onClick={addLink}>
              <Plus aria-hidden className="size-4" /> Add another link
            </Button>
          ) : null}
        </fieldset>
        <div>
          <Label htmlFor={`${id}-email`}>
            Email Address<span aria-hidden="true">*</span>
          </Label>
          <Input
            id={`${id}-email`}
            name="email"
            type="email"
            autoComplete="email"
            required
            maxLength={CONTACT_LIMITS.emailMaxLength}
            value={form.email}
            onChange={(event) => update('email', event.target.value)}
          />
        </div>
        <Button type="submit" size="lg" className="w-full" disabled={isBusy}>
          {submitLabels[status]}
        </Button>
        <p className="sr-only" role="status">
          {status === 'idle' ? '' : submitLabels[status]}
        </p>
        {status === 'error' && detail ? (
          <p className="text-sm text-red-300" role="alert">
            {detail}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}
