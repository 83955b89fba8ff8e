/** Types of scripts/start.mjs (plain JavaScript, so that `npm start` needs no TypeScript loader to decide). */
export function checkNeeded(dir?: string, env?: NodeJS.ProcessEnv): string | undefined;
export function recordCheck(checkedAt: number, dir?: string, env?: NodeJS.ProcessEnv): void;
export function ensureBuildCurrent(): void;
