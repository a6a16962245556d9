/**
 * The operator's brand and plans (issue 27, record 203): admins only, validated by the shared schemas,
 * audited; the warnings name the claims the enabled targets do not back; mails and statements read the name.
 */
import {
  DEFAULT_PLANS,
  defaultPlanFeatures,
  parseSiteBrand,
  revenueKept,
} from '@tunedrop/shared/schemas/brand';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, deliveryTargets, mailOutbox } from '../../db/schema';
import { brandedFrom, deliverPendingMail, enqueueMail } from '../../infra/mail/mail';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { readStatementIssuer } from '../statements';
import { readSiteBrand } from './service';

let system: TestSystem;
let admin: Awaited<ReturnType<TestSystem['signedInUser']>>;
let artist: Awaited<ReturnType<TestSystem['signedInUser']>>;

beforeAll(async () => {
  system = await createTestSystem();
  admin = await system.signedInUser({ roles: ['admin'] });
  artist = await system.signedInUser({ plan: 'pro' });
});
afterAll(async () => system?.close());

const brand = {
  productName: 'Harbour Sound',
  accentColor: '#0f766e',
  supportEmail: 'help@harbour.example',
  privacyEmail: '',
  platformsClaim: '3',
};

const put = (path: string, json: unknown, cookie = admin.cookie) =>
  system.request(path, { method: 'PUT', cookie, json });

const warningClaims = async () => {
  const answer = await system.request('/api/admin/brand/warnings', { cookie: admin.cookie });
  expect(answer.status).toBe(200);
  return ((await readJson(answer)).warnings as { claim: string }[]).map((warning) => warning.claim);
};

describe('brand and plan settings', () => {
  it('answers the spec defaults before anything is saved, to admins only', async () => {
    const read = await system.request('/api/admin/brand', { cookie: admin.cookie });
    expect(await readJson(read)).toEqual({
      productName: 'Tunedrop',
      accentColor: '#7c3aed',
      supportEmail: '',
      privacyEmail: '',
      platformsClaim: '150+',
      logoUrl: null,
      isDefault: true,
    });
    const plans = await readJson(await system.request('/api/admin/plans', { cookie: admin.cookie }));
    expect(plans).toEqual({ ...DEFAULT_PLANS, isDefault: true });
    expect(plans.pro.features).toContainEqual({ text: 'YouTube Content ID protection', isIncluded: true });
    expect((await system.request('/api/admin/brand', { cookie: artist.cookie })).status).toBe(403);
    expect((await put('/api/admin/brand', brand, artist.cookie)).status).toBe(403);
    expect((await system.request('/api/admin/brand')).status).toBe(401);
  });

  it('refuses what the shared schema refuses, with its messages', async () => {
    const refused = await put('/api/admin/brand', {
      ...brand,
      productName: ' ',
      accentColor: '#fde047',
      supportEmail: 'not an email',
      platformsClaim: 'lots',
    });
    expect(refused.status).toBe(422);
    const { error } = await readJson(refused);
    expect(error.fields).toMatchObject({
      productName: 'Enter the product name.',
      accentColor: 'Pick a darker colour: white text on it must reach a contrast of 4.5:1.',
      supportEmail: 'Enter a valid email address, or leave it empty.',
      platformsClaim: 'Enter a number of platforms, such as 150+ or 25.',
    });
    const plans = await put('/api/admin/plans', {
      basic: { priceCents: 10, priceId: 'price basic', features: [] },
      pro: DEFAULT_PLANS.pro,
    });
    expect(plans.status).toBe(422);
    expect((await readJson(plans)).error.fields).toMatchObject({
      'basic.priceCents': 'Enter a price from $0.50 to $999.99.',
      'basic.priceId': 'A price id is letters, digits, _ and -, at most 100 characters.',
      'basic.features': 'List at least one feature.',
    });
  });

  it('saves the brand and plans, audits the changed fields, and the public brand follows', async () => {
    const saved = await put('/api/admin/brand', { ...brand, accentColor: '#0F766E' });
    expect(saved.status).toBe(200);
    expect(await readJson(saved)).toMatchObject({ ...brand, isDefault: false });

    const plans = {
      basic: { ...DEFAULT_PLANS.basic, priceCents: 1299, priceId: 'price_basic_live' },
      pro: { ...DEFAULT_PLANS.pro, features: defaultPlanFeatures('pro', '3') },
    };
    expect((await put('/api/admin/plans', plans)).status).toBe(200);

    const site = await readSiteBrand(system.db);
    expect(site).toMatchObject({ productName: 'Harbour Sound', accentColor: '#0f766e', platformsClaim: '3' });
    expect(site.plans.basic).toEqual({ priceCents: 1299, features: DEFAULT_PLANS.basic.features });
    expect(JSON.stringify(site)).not.toContain('price_basic_live');

    const audits = await system.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'settings.update'), eq(auditLog.subjectId, 'Brand')));
    expect(audits).toHaveLength(1);
    expect(audits[0]?.actorEmail).toBe(admin.email);
    expect(audits[0]?.before).toEqual({
      productName: undefined,
      accentColor: undefined,
      supportEmail: undefined,
      privacyEmail: undefined,
      platformsClaim: undefined,
    });
    expect(audits[0]?.after).toMatchObject({ productName: 'Harbour Sound', accentColor: '#0f766e' });
    const planAudit = await system.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'settings.update'), eq(auditLog.subjectId, 'Plans')));
    expect(planAudit).toHaveLength(1);
  });

  it('names the product in mails and statements', async () => {
    await enqueueMail(system.db, {
      to: 'someone@example.com',
      subject: 'Confirm your email for Tunedrop',
      text: 'Welcome to Tunedrop.\n\nhttps://tunedrop.example/x\n\n— The Tunedrop team',
    });
    const [mail] = await system.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.recipient, 'someone@example.com'));
    expect(mail?.subject).toBe('Confirm your email for Harbour Sound');
    expect(mail?.textBody).toBe(
      'Welcome to Harbour Sound.\n\nhttps://tunedrop.example/x\n\n— The Harbour Sound team',
    );
    // No legal name set: statements are issued in the product's name.
    expect(await readStatementIssuer(system.db)).toEqual({
      legalName: 'Harbour Sound',
      address: '',
      source: 'default',
    });
  });

  it('states what artists keep after the fee, and mail comes from the brand (issue 44)', async () => {
    expect((await readSiteBrand(system.db)).fees).toBeNull();
    const fees = await put('/api/admin/finance/fees', { basic: '20', pro: '15', payee: '0' });
    expect(fees.status).toBe(200);
    const site = await readSiteBrand(system.db);
    expect(site.fees).toEqual({ basic: '20', pro: '15' });
    // The home page's "Revenue share" and Full Control read this: no "100%" beside a fee.
    expect(revenueKept(site)).toEqual({ kept: '80-85%', fee: '15-20%' });
    expect(parseSiteBrand(JSON.stringify(site))).toEqual(site);

    // The outbox's sender names the brand, not the built-in product.
    const senders: string[] = [];
    const sent = await deliverPendingMail(
      system.db,
      { send: async (mail) => void senders.push(mail.from) },
      { from: 'Tunedrop <no-reply@tunedrop.local>', domain: 'tunedrop.local' },
    );
    expect(sent).toBeGreaterThan(0);
    expect(new Set(senders)).toEqual(new Set(['"Harbour Sound" <no-reply@tunedrop.local>']));
    expect(brandedFrom('Label Desk <desk@label.example>', 'Harbour Sound')).toBe(
      'Label Desk <desk@label.example>',
    );

    expect((await put('/api/admin/finance/fees', { basic: '0', pro: '0', payee: '0' })).status).toBe(200);
    expect((await readSiteBrand(system.db)).fees).toBeNull();
  });

  it('warns about claims the enabled targets and settings do not back', async () => {
    // No target yet: the site's 3 platforms, the release form's 25, Content ID and custom codes.
    expect(await warningClaims()).toEqual([
      '3 platforms',
      '25 platforms',
      'Custom ISRC and UPC codes',
      'YouTube Content ID protection',
    ]);
    const [target] = await system.db
      .insert(deliveryTargets)
      .values({
        name: 'Three stores',
        scheme: 'file',
        urlMasked: 'file:///tmp/x',
        secret: 'x',
        dpid: 'PADPIDA2009101501Y',
        platforms: ['spotify', 'deezer', 'tidal'],
      })
      .returning();
    expect(await warningClaims()).toEqual([
      '25 platforms',
      'Custom ISRC and UPC codes',
      'YouTube Content ID protection',
    ]);
    await system.db.insert(deliveryTargets).values({
      name: 'YouTube',
      scheme: 'file',
      urlMasked: 'file:///tmp/y',
      secret: 'x',
      dpid: 'PADPIDA2013020802I',
      platforms: ['youtube_music'],
      profile: 'youtube',
    });
    expect(await warningClaims()).toEqual(['25 platforms', 'Custom ISRC and UPC codes']);
    // A disabled target serves nothing.
    await system.db
      .update(deliveryTargets)
      .set({ enabled: false })
      .where(eq(deliveryTargets.id, target?.id ?? ''));
    const warnings = (
      await readJson(await system.request('/api/admin/brand/warnings', { cookie: admin.cookie }))
    ).warnings;
    expect(warnings[0]).toEqual({
      claim: '3 platforms',
      message: 'The site claims "3 platforms", but the enabled delivery targets serve 1 (YouTube Music).',
    });
  });

  it('stores a logo checked by content and serves it publicly', async () => {
    const notImage = await system.request('/api/admin/brand/logo', {
      method: 'PUT',
      cookie: admin.cookie,
      body: 'GIF89a not really',
      headers: { 'Content-Type': 'image/gif' },
    });
    expect(notImage.status).toBe(422);
    expect((await readJson(notImage)).error.message).toBe('The logo must be a PNG or JPEG image.');
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#0f766e' } })
      .png()
      .toBuffer();
    const saved = await system.request('/api/admin/brand/logo', {
      method: 'PUT',
      cookie: admin.cookie,
      body: png,
      headers: { 'Content-Type': 'image/png' },
    });
    expect(saved.status).toBe(200);
    const { logoUrl } = await readJson(saved);
    expect(logoUrl).toMatch(/^\/api\/brand\/logo\/logo-[0-9a-f]{16}\.png$/);
    const served = await system.request(logoUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
    expect((await readSiteBrand(system.db)).logoUrl).toBe(logoUrl);

    const removed = await system.request('/api/admin/brand/logo', { method: 'DELETE', cookie: admin.cookie });
    expect((await readJson(removed)).logoUrl).toBeNull();
    expect((await system.request(logoUrl)).status).toBe(404);
  });
});
