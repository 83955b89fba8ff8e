/**
 * Server field errors onto form fields: the portal names the parameter in `error.fieldErrors`
 * ({param: problem}); where a form field has that name the problem is shown beside it.
 */
import { ApiError, describeError } from '../api/index.ts';

/** "must be at least 5 characters" → "Must be at least 5 characters". */
export function sentence(problem: string): string {
  const text = problem.trim();
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/**
 * Calls `setError` for each field error whose parameter is one of `fields` (mapped through
 * `paramToField` when the form names a field differently). Returns what is left to say at the
 * form level (null when every problem was placed beside a field).
 */
export function applyServerErrors<F extends string>(
  err: unknown,
  fields: readonly F[],
  setError: (field: F, error: { type: string; message: string }, options?: { shouldFocus: boolean }) => void,
  paramToField: Partial<Record<string, F>> = {},
): string | null {
  if (!(err instanceof ApiError) || !err.fieldErrors) return describeError(err);
  let placed = 0;
  let first = true;
  const leftover: string[] = [];
  for (const [param, problem] of Object.entries(err.fieldErrors)) {
    const field = paramToField[param] ?? (fields.includes(param as F) ? (param as F) : undefined);
    if (field) {
      setError(field, { type: 'server', message: sentence(problem) }, { shouldFocus: first });
      first = false;
      placed++;
    } else {
      leftover.push(`${param}: ${problem}`);
    }
  }
  if (placed === 0) return describeError(err);
  return leftover.length ? `${err.message} ${leftover.join(' ')}` : null;
}

/** A count as people read it: 2048 → "2,048". */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/**
 * Field-named messages for the forms' own checks (issue 25, item 11): a required field says what
 * to do with it ("Enter a title", "Choose a role"), a length error says the field and its limit.
 * `field` is how a sentence names it: "the summary", "the role's description".
 */
export function tooLong(field: string, max: number, unit: 'characters' | 'bytes' = 'characters'): string {
  return sentence(`${field} can have at most ${formatCount(max)} ${unit}`);
}

/** "Each tag can have at most 256 characters" / "The summary can have at most 2,048 characters". */
export function tooMany(things: string, max: number): string {
  return `You can add at most ${formatCount(max)} ${things}`;
}
