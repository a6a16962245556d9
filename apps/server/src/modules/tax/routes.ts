/**
 * Tax routes (issue 38), mounted under /api: the account owner's standing, interview answer, signed forms
 * and their PDFs; the admin's settings, treaty rates, forms (list, PDF, invalidate) and year-end CSV.
 */
import {
  TAX_REPORT_FORMS,
  taxFormSchema,
  taxResidencySchema,
  taxSettingsSchema,
  treatyRateSchema,
  vatRegistrationSchema,
} from '@tunedrop/shared/schemas/tax';
import { Hono } from 'hono';
import { z } from 'zod';
import { access, requireViewer } from '../../lib/access';
import { clientAddress } from '../../lib/client-address';
import { attachmentDisposition } from '../../lib/content-disposition';
import type { AppEnv } from '../../lib/context';
import { validationError } from '../../lib/errors';
import { validate } from '../../lib/validate';
import { declareResidency, invalidateTaxForm, signTaxForm } from './forms';
import { invoicePdf, listInvoices, readVatRegistration, saveVatRegistration } from './invoices';
import { buildTaxReport, TaxReportMismatch, taxReportCsv } from './report';
import { listTaxForms, taxFormPdf, taxStandingOf } from './service';
import { readTaxSettings, saveTaxSettings } from './settings';
import { listTreatyRates, saveTreatyRate } from './treaty';

const idParam = z.object({ id: z.uuid({ error: 'Tax form not found.' }) });
const reportParams = z.object({
  year: z.coerce.number().int().min(2000).max(2100),
  form: z.enum(TAX_REPORT_FORMS),
});
const invalidateSchema = z.object({
  reason: z
    .string({ error: 'Say why the form can no longer be used.' })
    .trim()
    .min(3, 'Say why the form can no longer be used.')
    .max(300),
});

export const taxRoutes = new Hono<AppEnv>()
  .get('/tax/standing', access('user'), async (c) => {
    return c.json(await taxStandingOf(c.var.deps.db, requireViewer(c).account.id), 200);
  })
  .post('/tax/residency', access('user'), validate('json', taxResidencySchema), async (c) => {
    const viewer = requireViewer(c);
    await declareResidency(c.var.deps.db, viewer.account.id, c.req.valid('json').isUsPerson);
    return c.json(await taxStandingOf(c.var.deps.db, viewer.account.id), 200);
  })
  .post('/tax/forms', access('user'), validate('json', taxFormSchema), async (c) => {
    const viewer = requireViewer(c);
    const { db, config } = c.var.deps;
    await signTaxForm(
      db,
      config.appSecret,
      c.req.valid('json'),
      {
        userId: viewer.account.id,
        signedAt: new Date(),
        address: clientAddress(c),
        userAgent: c.req.header('user-agent')?.slice(0, 300) ?? null,
      },
      viewer,
    );
    return c.json(await taxStandingOf(db, viewer.account.id), 201);
  })
  .get('/tax/forms/:id/pdf', access('user'), validate('param', idParam), async (c) => {
    const { pdf, name } = await taxFormPdf(
      c.var.deps.db,
      c.req.valid('param').id,
      requireViewer(c).account.id,
    );
    c.header('Content-Type', 'application/pdf');
    c.header('Content-Disposition', attachmentDisposition(name));
    return c.body(new Uint8Array(pdf), 200);
  })
  // The non-US regime: the payee's VAT/GST registration and their self-billing invoices.
  .get('/tax/vat', access('user'), async (c) => {
    return c.json({ vat: await readVatRegistration(c.var.deps.db, requireViewer(c).account.id) }, 200);
  })
  .put('/tax/vat', access('user'), validate('json', vatRegistrationSchema), async (c) => {
    const viewer = requireViewer(c);
    return c.json(
      { vat: await saveVatRegistration(c.var.deps.db, viewer.account.id, c.req.valid('json'), viewer) },
      200,
    );
  })
  .get('/tax/invoices', access('user'), async (c) => {
    return c.json({ invoices: await listInvoices(c.var.deps.db, requireViewer(c).account.id) }, 200);
  })
  .get('/tax/invoices/:id/pdf', access('user'), validate('param', idParam), async (c) => {
    const { pdf, name } = await invoicePdf(
      c.var.deps.db,
      c.req.valid('param').id,
      requireViewer(c).account.id,
    );
    c.header('Content-Type', 'application/pdf');
    c.header('Content-Disposition', attachmentDisposition(name));
    return c.body(new Uint8Array(pdf), 200);
  })
  .get('/admin/tax/settings', access('admin'), async (c) => c.json(await readTaxSettings(c.var.deps.db), 200))
  .put('/admin/tax/settings', access('admin'), validate('json', taxSettingsSchema), async (c) => {
    const viewer = requireViewer(c);
    return c.json(await saveTaxSettings(c.var.deps.db, c.req.valid('json'), viewer.user.id, viewer), 200);
  })
  .get('/admin/tax/treaty-rates', access('admin'), async (c) =>
    c.json({ rates: await listTreatyRates(c.var.deps.db) }, 200),
  )
  .post('/admin/tax/treaty-rates', access('admin'), validate('json', treatyRateSchema), async (c) => {
    return c.json(await saveTreatyRate(c.var.deps.db, c.req.valid('json'), requireViewer(c)), 201);
  })
  .get('/admin/tax/forms', access('admin'), async (c) =>
    c.json({ forms: await listTaxForms(c.var.deps.db) }, 200),
  )
  .get('/admin/tax/forms/:id/pdf', access('admin'), validate('param', idParam), async (c) => {
    const { pdf, name } = await taxFormPdf(c.var.deps.db, c.req.valid('param').id, null);
    c.header('Content-Type', 'application/pdf');
    c.header('Content-Disposition', attachmentDisposition(name));
    return c.body(new Uint8Array(pdf), 200);
  })
  .post(
    '/admin/tax/forms/:id/invalidate',
    access('admin'),
    validate('param', idParam),
    validate('json', invalidateSchema),
    async (c) => {
      await invalidateTaxForm(
        c.var.deps.db,
        c.req.valid('param').id,
        c.req.valid('json').reason,
        requireViewer(c),
      );
      return c.json({ ok: true }, 200);
    },
  )
  // Every payee's self-billing invoices (the non-US regime), newest first.
  .get('/admin/tax/invoices', access('admin'), async (c) =>
    c.json({ invoices: await listInvoices(c.var.deps.db, null) }, 200),
  )
  .get('/admin/tax/invoices/:id/pdf', access('admin'), validate('param', idParam), async (c) => {
    const { pdf, name } = await invoicePdf(c.var.deps.db, c.req.valid('param').id, null);
    c.header('Content-Type', 'application/pdf');
    c.header('Content-Disposition', attachmentDisposition(name));
    return c.body(new Uint8Array(pdf), 200);
  })
  .get('/admin/tax/reports/:year/:form', access('admin'), validate('param', reportParams), async (c) => {
    const { year, form } = c.req.valid('param');
    try {
      const report = await buildTaxReport(c.var.deps.db, c.var.deps.config.appSecret, { year, form });
      c.header('Content-Type', 'text/csv; charset=utf-8');
      c.header('Content-Disposition', attachmentDisposition(`${form}-${year}.csv`));
      return c.body(taxReportCsv(report), 200);
    } catch (error) {
      if (error instanceof TaxReportMismatch)
        throw validationError(`The report differs from the journal: ${error.message}`);
      throw error;
    }
  });
