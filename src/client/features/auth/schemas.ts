/** The sign-in forms: username and password, and the client ID for signing in with a portal (OAuth). */
import { z } from 'zod';

export const portalUrlSchema = z
  .string()
  .trim()
  .min(1, 'Enter the portal URL')
  .transform((s) => s.replace(/\/+$/, ''))
  .refine((s) => {
    try {
      const url = new URL(s);
      return url.protocol === 'https:' || url.protocol === 'http:';
    } catch {
      return false;
    }
  }, 'Enter a full http:// or https:// address')
  .refine((s) => /\/sharing\/rest$/i.test(s), 'The portal URL ends with /sharing/rest, e.g. https://host/portal/sharing/rest');

export const signInSchema = z.object({
  portalUrl: portalUrlSchema,
  username: z.string().trim().min(1, 'Enter your username'),
  password: z.string().min(1, 'Enter your password'),
});

export type SignInInput = z.input<typeof signInSchema>;
export type SignInValues = z.output<typeof signInSchema>;

/** The console's client ID on a portal (the registered app's "Client ID"); letters and digits. */
export const clientIdSchema = z
  .string()
  .trim()
  .min(1, 'Enter the client ID of the app you registered on this portal')
  .regex(/^[A-Za-z0-9]{1,64}$/, 'A client ID is letters and digits only, e.g. GGjeDjEY6kKEiDmX');
