/** URL fields of the console's forms: what the portal accepts as an outbound URL. */
import { z } from 'zod';
import { LIMITS } from '../../shared/limits.ts';
import { tooLong } from './forms.ts';

export function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** An http(s) URL of at most 2,048 characters (an empty value is asked for). */
export const httpUrlSchema = z
  .string()
  .trim()
  .min(1, 'Enter a URL')
  .max(LIMITS.urlChars, tooLong('the URL', LIMITS.urlChars))
  .refine(isHttpUrl, 'Enter a URL that starts with http:// or https://');
