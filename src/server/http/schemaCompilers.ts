/**
 * Fastify's JSON-schema compilers (ajv for validation, fast-json-stringify for replies), loaded
 * when a route first needs one rather than when the server is created.
 *
 * Fastify requires both packages as it builds every instance, about 100 ms of CPU and 3 MB of heap
 * on each start, yet no route here declares a Fastify schema: operation() validates parameters with
 * zod and writes its own JSON. A route that did declare one gets the same compilers, built on first
 * use. (Fastify treats a compiler given this way as custom, which only means it leaves a `headers`
 * schema's keys as written instead of lower-casing them; none exists.)
 */
import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
/** What both packages export: a factory of the selector that Fastify calls with (external schemas, options). */
type Selector = (externalSchemas: unknown, options: unknown) => unknown;

// Resolved from Fastify's own folder: they are its dependencies, not ours.
const requireFromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));

/** The package's selector, made on first call and kept: Fastify keeps one too (it caches compilers by schemas and options). */
function lazily(pkg: string): Selector {
  let selector: Selector | undefined;
  return (externalSchemas, options) => {
    selector ??= (requireFromFastify(pkg) as () => Selector)();
    return selector(externalSchemas, options);
  };
}

export const lazySchemaCompilers = {
  buildValidator: lazily('@fastify/ajv-compiler'),
  buildSerializer: lazily('@fastify/fast-json-stringify-compiler'),
} as CompilersFactory;
