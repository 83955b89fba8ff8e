/** URL fields of the console's forms: what the portal accepts as an outbound URL. */
import { z } from 'zod';

export function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** An http(s) URL of at most 2048 characters (an empty value is "not an http or https URL"). */
export const httpUrlSchema = z.string().trim().max(2048, 'must be at most 2048 characters').refine(isHttpUrl, 'must be an http or https URL');
