import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { lazySchemaCompilers } from './schemaCompilers.ts';

// No route of the service declares a Fastify schema; one that did must still be validated and serialised.
describe('lazySchemaCompilers', () => {
  it('validates and serialises a route that declares a schema, as the default compilers do', async () => {
    const app = Fastify({ schemaController: { compilersFactory: lazySchemaCompilers } });
    app.get(
      '/n',
      {
        schema: {
          querystring: { type: 'object', properties: { n: { type: 'integer', minimum: 1 } }, required: ['n'] },
          response: { 200: { type: 'object', properties: { double: { type: 'integer' } } } },
        },
      },
      async (req) => ({ double: (req.query as { n: number }).n * 2, dropped: 'not in the response schema' }),
    );
    const ok = await app.inject({ url: '/n?n=21' });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('{"double":42}');
    const bad = await app.inject({ url: '/n?n=0' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/must be >= 1/);
    await app.close();
  });
});
