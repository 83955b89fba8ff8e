/** The baseline: a bare Fastify route answering a small JSON body, nothing else. */
import Fastify from 'fastify';

const app = Fastify();
app.get('/hello', async () => ({ username: 'admin', role: 'org_admin', orgId: 'x' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.once('SIGTERM', () => app.close().then(() => process.exit(0)));
