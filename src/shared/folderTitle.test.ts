import { describe, expect, it } from 'vitest';
import { reassignItemsParams } from './contract/reassign.ts';
import { folderTitleProblem, targetFolderOf } from './folderTitle.ts';

describe('a target folder as typed', () => {
  it('"" and "/" are the root; a leading "/" is not part of the title', () => {
    expect(targetFolderOf('')).toEqual({ folder: '/' });
    expect(targetFolderOf(' / ')).toEqual({ folder: '/' });
    expect(targetFolderOf('//')).toEqual({ folder: '/' });
    expect(targetFolderOf('/Hydrants')).toEqual({ folder: 'Hydrants' });
    expect(targetFolderOf('  Hydrants 2024 ')).toEqual({ folder: 'Hydrants 2024' });
  });

  it('a title the service refuses is refused with the reason', () => {
    expect(targetFolderOf('/a/b').problem).toMatch(/must not hold/);
    expect(targetFolderOf('Hyd?rants').problem).toMatch(/must not hold/);
    expect(targetFolderOf('..').problem).toMatch(/must not hold/);
    expect(targetFolderOf('x'.repeat(256)).problem).toBe('must be at most 255 characters');
    expect(folderTitleProblem('x'.repeat(255))).toBeUndefined();
  });

  it('is the rule the service applies to a transfer’s folder (and to createFolder: folders/routes.ts)', () => {
    for (const typed of ['/Hydrants', 'Hyd?rants', 'a:b', 'Parks 2024', '/', 'x'.repeat(256)]) {
      const { folder, problem } = targetFolderOf(typed);
      const transfer = reassignItemsParams.safeParse({ items: 'abc', targetUsername: 'u', targetFolderName: folder });
      expect(transfer.success, typed).toBe(!problem);
    }
    // Sent as typed, a leading "/" is refused by the service: the field strips it first.
    expect(reassignItemsParams.safeParse({ items: 'abc', targetUsername: 'u', targetFolderName: '/Hydrants' }).success).toBe(false);
  });
});
