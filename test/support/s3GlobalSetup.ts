/**
 * Vitest global setup of the 'infra' project (vite.config.ts): one S3 test server for the whole run
 * instead of one per file (a Ceph start and stop cost 7–10 s, more on a busy machine). Its folder
 * is handed to the test files' processes in S3_TEST_SERVER_DIR, where startS3TestServer() finds it.
 * The project runs its files one at a time, since some of them stop the gateway for a while.
 */
import { s3ServerAvailable, SHARED_S3_SERVER_DIR, startS3TestServer } from './s3.ts';

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (!s3ServerAvailable) return undefined;
  const server = await startS3TestServer();
  process.env[SHARED_S3_SERVER_DIR] = server.dir;
  return async () => {
    delete process.env[SHARED_S3_SERVER_DIR];
    await server.stop();
  };
}
