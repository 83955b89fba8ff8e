import { describe, expect, it } from 'vitest';
import type { Item } from '../api/index.ts';
import { pickerSearch, rankPage, titleMatch, typeClause } from './itemPickerSearch.ts';

const item = (title: string) => ({ id: title, title }) as Item;

describe('the item picker’s search', () => {
  it('asks the portal with the typed words and the accepted types, in its order; nothing typed lists by title', () => {
    expect(pickerSearch('hydrants 3d', ['Scene Service'])).toEqual({ q: '(hydrants 3d) AND (type:"Scene Service")', sorted: false });
    expect(pickerSearch('hydrants', ['Notebook', 'Scene Service'])).toEqual({ q: '(hydrants) AND (type:"Notebook" OR type:"Scene Service")', sorted: false });
    expect(pickerSearch('  ', ['Scene Service'])).toEqual({ q: '(type:"Scene Service")', sorted: true });
    expect(pickerSearch('')).toEqual({ q: '*', sorted: true });
    // Query syntax typed by accident is read as words.
    expect(pickerSearch('a "(b):c')).toEqual({ q: '(a   b  c)', sorted: false });
    expect(pickerSearch('0123456789abcdef0123456789abcdef', ['Scene Service']).q).toBe('id:0123456789abcdef0123456789abcdef');
    expect(typeClause([])).toBe('');
  });

  it('offers the best title matches of a page first, the portal’s order among equals', () => {
    expect(titleMatch('Hydrants 3D', 'hydrants  3d')).toBe(0);
    expect(titleMatch('Hydrants 3D (2024)', 'hydrants 3d')).toBe(1);
    expect(titleMatch('City hydrants 3D', 'hydrants 3d')).toBe(2);
    expect(titleMatch('3D of hydrants', 'hydrants 3d')).toBe(3);
    const page = ['3D of hydrants', 'City hydrants 3D', 'Hydrants 3D (2024)', 'Hydrants 3D', 'Hydrants in 3D'].map(item);
    expect(rankPage(page, 'hydrants 3d').map((i) => i.title)).toEqual([
      'Hydrants 3D',
      'Hydrants 3D (2024)',
      'City hydrants 3D',
      '3D of hydrants',
      'Hydrants in 3D',
    ]);
    expect(rankPage(page, '').map((i) => i.title)).toEqual(page.map((i) => i.title));
  });
});
