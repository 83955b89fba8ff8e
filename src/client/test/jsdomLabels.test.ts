/** The faster label lookups (jsdomLabels.ts, installed by the tests' setup) answer as jsdom's walk did. */
import { afterEach, describe, expect, it } from 'vitest';

const labelTexts = (el: HTMLInputElement | HTMLButtonElement | HTMLSelectElement) => [...el.labels!].map((l) => l.textContent);

afterEach(() => {
  document.body.innerHTML = '';
});

describe('label lookups', () => {
  it('finds labels by for and by nesting, in document order, and follows changes', () => {
    document.body.innerHTML = `
      <label for="a">First</label>
      <label>Wrapping <input id="a" /></label>
      <input id="b" />
      <label for="b">Later</label>`;
    const a = document.getElementById('a') as HTMLInputElement;
    const b = document.getElementById('b') as HTMLInputElement;
    expect(labelTexts(a)).toEqual(['First', 'Wrapping ']);
    expect(labelTexts(b)).toEqual(['Later']);
    const later = b.labels![0];
    expect(later.control).toBe(b);

    // The same live lists see a changed for, a new label and a removed one.
    const aLabels = a.labels!;
    later.htmlFor = 'a';
    expect(labelTexts(a)).toEqual(['First', 'Wrapping ', 'Later']);
    expect(aLabels).toHaveLength(3);
    expect(labelTexts(b)).toEqual([]);
    document.body.insertAdjacentHTML('afterbegin', '<label for="b">New</label>');
    expect(labelTexts(b)).toEqual(['New']);
    document.body.querySelector('label')!.remove();
    expect(labelTexts(b)).toEqual([]);
    // An id moved to another element moves its labels with it.
    a.id = 'moved';
    b.id = 'a';
    expect(labelTexts(b)).toEqual(['First', 'Later']);
    expect(labelTexts(a)).toEqual(['Wrapping ']);
  });

  it('a for pointing at what cannot be labelled, or at a second element with that id, labels nothing', () => {
    document.body.innerHTML = `
      <label for="x">Hidden</label><input type="hidden" id="x" />
      <label for="d">Div</label><div id="d"></div>
      <label for="dup">Dup</label><span id="dup"></span><input id="dup" />
      <label for="">Empty</label><input />`;
    const labels = [...document.querySelectorAll('label')];
    expect(labels.map((l) => l.control)).toEqual([null, null, null, null]);
    const inputs = [...document.querySelectorAll('input')];
    expect(inputs[0].labels).toBeNull();
    expect(inputs.slice(1).map((i) => i.labels!.length)).toEqual([0, 0]);
  });

  it('labels buttons and selects, and elements outside the document keep their own lookup', () => {
    document.body.innerHTML = `<label for="s">Pick</label><select id="s"></select><label>Go <button>go</button></label>`;
    expect(labelTexts(document.querySelector('select')!)).toEqual(['Pick']);
    expect(labelTexts(document.querySelector('button')!)).toEqual(['Go go']);
    const detached = document.createElement('div');
    detached.innerHTML = '<label for="q">Away</label><input id="q" />';
    const input = detached.querySelector('input')!;
    expect(labelTexts(input)).toEqual(['Away']);
    expect(detached.querySelector('label')!.control).toBe(input);
  });
});
