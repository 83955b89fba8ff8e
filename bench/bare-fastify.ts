/**
 * The baseline: a bare Fastify route answering a small JSON body, nothing else. `/sized` answers a
 * JSON body of BARE_BODY_BYTES bytes (an object with a string array, as a member's privileges), so
 * a route of the service can be set against a bare one sending as many bytes.
 */
import Fastify from 'fastify';

const app = Fastify();
app.get('/hello', async () => ({ username: 'admin', role: 'org_admin', orgId: 'x' }));

const bytes = Number(process.env.BARE_BODY_BYTES ?? 0);
const sized: { username: string; privileges: string[] } = { username: 'admin', privileges: [] };
while (JSON.stringify(sized).length < bytes) sized.privileges.push(`portal:user:privilege${sized.privileges.length}`);
app.get('/sized', async () => sized);

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.once('SIGTERM', () => app.close().then(() => process.exit(0)));
