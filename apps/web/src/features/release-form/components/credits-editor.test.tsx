/**
 * The release form's credits editor (builder and Edit Release, record 262) as a person uses it: add a
 * songwriter, type the name and pick the role, see the server's field errors beside the field they name,
 * remove the row. The editor keeps no state of its own: the test holds the rows as the form does.
 */

import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SongwriterDraft } from '@tunedrop/shared/schemas/builder';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { emptySongwriter } from '../model/credits';
import { CreditsEditor } from './credits-editor';

function Songwriters({
  seen,
  fieldErrors = {},
}: {
  seen: { rows: SongwriterDraft[] };
  fieldErrors?: Record<string, string>;
}) {
  const [rows, setRows] = useState<SongwriterDraft[]>([]);
  seen.rows = rows;
  return (
    <CreditsEditor
      kind="songwriter"
      trackId="t1"
      people={rows}
      fieldErrors={fieldErrors}
      onAdd={() => setRows((current) => [...current, emptySongwriter()])}
      onChange={(index, change) =>
        setRows((current) => current.map((row, at) => (at === index ? { ...row, ...change } : row)))
      }
      onRemove={(index) => setRows((current) => current.filter((_, at) => at !== index))}
    />
  );
}

describe('credits editor', () => {
  it('adds a songwriter with a name and a role, then removes them', async () => {
    const user = userEvent.setup();
    const seen = { rows: [] as SongwriterDraft[] };
    render(<Songwriters seen={seen} />);

    await user.click(screen.getByRole('button', { name: 'Add Songwriter' }));
    await user.type(screen.getByLabelText('First Name'), 'Ada');
    await user.type(screen.getByLabelText('Last Name'), 'Lovelace');
    await user.selectOptions(screen.getByLabelText('Role'), 'lyrics');
    expect(seen.rows).toEqual([
      expect.objectContaining({ firstName: 'Ada', middleName: '', lastName: 'Lovelace', role: 'lyrics' }),
    ]);

    await user.click(screen.getByRole('button', { name: 'Remove songwriter 1' }));
    expect(seen.rows).toEqual([]);
    expect(screen.queryByLabelText('First Name')).toBeNull();
  });

  it("shows a field's error beside it and marks the field invalid", async () => {
    const user = userEvent.setup();
    const seen = { rows: [] as SongwriterDraft[] };
    const { rerender } = render(<Songwriters seen={seen} />);
    await user.click(screen.getByRole('button', { name: 'Add Songwriter' }));
    rerender(<Songwriters seen={seen} fieldErrors={{ '0.lastName': 'Enter the last name.' }} />);

    const lastName = screen.getByLabelText('Last Name');
    expect(lastName.getAttribute('aria-invalid')).toBe('true');
    const describedBy = lastName.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(describedBy)?.textContent).toBe('Enter the last name.');
    expect(screen.getByLabelText('First Name').getAttribute('aria-invalid')).toBeNull();
  });
});
