/**
 * The error envelope (spec §7, facts §1.5/§1.7): HTTP 200 with `{error:{code, messageCode?, message, details}}`.
 */
import { z } from 'zod';

export const errorEnvelope = z.object({
  error: z.object({
    code: z.number(),
    messageCode: z.string().optional(),
    message: z.string(),
    details: z.array(z.unknown()).default([]),
    /** Local-portal extra: parameter name → problem, so forms can show errors beside fields. */
    fieldErrors: z.record(z.string(), z.string()).optional(),
  }),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelope>;
export type ErrorBody = ErrorEnvelope['error'];

/** Message codes with fixed meaning on the wire. */
export const MESSAGE_CODES = {
  tokenRequired: 'GWM_0003',
  forbidden: 'GWM_0003',
  itemNotFound: 'CONT_0001',
  proxyRateLimited: 'CONT_0049',
  reassignBlocked: 'CONT_0291',
  publicAuthoritativeRefused: 'CONT_0163',
  tooManyUsers: 'ORG_3100',
} as const;
