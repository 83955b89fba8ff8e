/**
 * Global setup of the console's tests (the `client` Vitest project): the portal each test file
 * starts (src/client/test/service.ts) runs from its bundle, built here when its sources changed.
 */
import { buildTestServiceIfStale } from '../../scripts/build-server.ts';

export default async function setup(): Promise<void> {
  await buildTestServiceIfStale();
}
