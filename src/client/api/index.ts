/** The console's API module: `request()` plus one typed function per REST operation. No React. */
export * from './errors.ts';
export * from './request.ts';
export * from './batches.ts';
export * from './types.ts';
export * from './auth.ts';
export * from './portals.ts';
export * from './users.ts';
export * from './roles.ts';
export * from './groups.ts';
export * from './userDefaultSettings.ts';
export * from './items.ts';
export * from './reassign.ts';
export * from './collaborations.ts';
export * from './webhooks.ts';
export * from './tasks.ts';
export * from './history.ts';
export * from './dependencies.ts';
