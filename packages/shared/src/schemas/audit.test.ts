import { describe, expect, it } from 'vitest';
import { AUDIT_KINDS, auditChanges, auditDiff, auditFilterSchema, auditKindLabel } from './audit';

describe('auditDiff', () => {
  it('lists only the fields that changed, with before and after as text', () => {
    expect(
      auditDiff(
        { name: 'Store', enabled: true, platforms: 'all' },
        { name: 'Store', enabled: false, platforms: ['spotify'] },
      ),
    ).toEqual([
      { field: 'enabled', before: 'true', after: 'false' },
      { field: 'platforms', before: 'all', after: '["spotify"]' },
    ]);
  });

  it('shows every field of a creation as set and of a deletion as removed', () => {
    expect(auditDiff(null, { fileName: 'a.tsv', rate: null })).toEqual([
      { field: 'fileName', before: null, after: 'a.tsv' },
      { field: 'rate', before: null, after: '—' },
    ]);
    expect(auditChanges({ title: 'Gone' }, null)).toEqual(['title: Gone (removed)']);
    expect(auditChanges({ a: 1 }, { a: 2 })).toEqual(['a: 1 → 2']);
    expect(auditDiff(null, null)).toEqual([]);
  });
});

describe('kinds and filters', () => {
  it('labels every kind and shows an unknown one as itself', () => {
    expect(auditKindLabel('royalties.import')).toBe(AUDIT_KINDS['royalties.import']);
    expect(auditKindLabel('future.kind')).toBe('future.kind');
    for (const kind of Object.keys(AUDIT_KINDS)) expect(kind).toMatch(/^[a-z_]+(\.[a-z_]+)+$/);
  });

  it('takes a kind or a group, whole UTC days, and drops empty values', () => {
    expect(auditFilterSchema.parse({ kind: 'delivery.target', from: '2026-01-01', to: '' })).toEqual({
      kind: 'delivery.target',
      from: '2026-01-01',
    });
    expect(auditFilterSchema.safeParse({ kind: "x'; drop" }).success).toBe(false);
    expect(auditFilterSchema.safeParse({ from: '01/02/2026' }).success).toBe(false);
  });
});
