/**
 * The operator's fee card on Admin Settings (record 189), against mocked API answers: the fees read are
 * shown per plan, a save sends what was typed and shows the server's refusal beside its field, and a
 * failed read says so (the shared settings card, components/ui/settings-card.tsx).
 */

import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FeeSettingsView } from '@tunedrop/shared/schemas/finance';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { getError, getJson, server } from '../../../test-support/api-mock';
import { renderRoute } from '../../../test-support/render-route';
import { FeeSettingsCard } from './fee-settings-card';

const fees: FeeSettingsView = { basic: '15', pro: '10', payee: '20' };

describe('fee settings card', () => {
  it("shows each plan's fee and shows the server's refusal of a save beside the field", async () => {
    const saved: unknown[] = [];
    server.use(
      getJson('/admin/finance/fees', fees),
      http.put('*/api/admin/finance/fees', async ({ request }) => {
        saved.push(await request.json());
        return HttpResponse.json(
          { error: { code: 'validation', message: 'Check the fees.', fields: { pro: 'At most 50%.' } } },
          { status: 422 },
        );
      }),
    );
    renderRoute(<FeeSettingsCard />);
    const pro = await screen.findByLabelText('Pro (%)');
    expect((pro as HTMLInputElement).value).toBe('10');
    expect((screen.getByLabelText('Basic (%)') as HTMLInputElement).value).toBe('15');

    const user = userEvent.setup();
    await user.clear(pro);
    await user.type(pro, '12.5');
    await user.click(screen.getByRole('button', { name: /save/i }));
    expect(await screen.findByText('At most 50%.')).toBeTruthy();
    expect(pro.getAttribute('aria-invalid')).toBe('true');
    expect(saved).toEqual([{ basic: '15', pro: '12.5', payee: '20' }]);
  });

  it('says the fees could not be read', async () => {
    server.use(getError('/admin/finance/fees', 500, 'internal', 'The fees could not be read.'));
    renderRoute(<FeeSettingsCard />);
    expect((await screen.findByRole('alert')).textContent).toBe('The fees could not be read.');
  });
});
