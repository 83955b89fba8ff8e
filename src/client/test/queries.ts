/**
 * Fast lookups for big forms. Testing Library's *ByLabelText / *ByRole compute every element's
 * accessible name, which takes seconds over the privilege checklist's 120 checkboxes in jsdom;
 * these find the same control through its <label> text or aria-label directly.
 */
export function inputByLabel(label: string, within: ParentNode = document): HTMLInputElement {
  const byAria = [...within.querySelectorAll<HTMLInputElement>('input[aria-label]')].filter((i) => i.getAttribute('aria-label') === label);
  const byText = [...within.querySelectorAll('label')]
    .filter((l) => l.textContent === label)
    .map((l) => document.getElementById(l.htmlFor) as HTMLInputElement | null);
  const found = [...byAria, ...byText].filter((x): x is HTMLInputElement => !!x);
  if (found.length !== 1) throw new Error(`${found.length} inputs are labelled “${label}”`);
  return found[0];
}

export function queryInputByLabel(label: string, within: ParentNode = document): HTMLInputElement | null {
  try {
    return inputByLabel(label, within);
  } catch {
    return null;
  }
}
