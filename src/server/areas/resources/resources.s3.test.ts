/**
 * Item resources in the object store (S3, the Ceph gateway of test/support/s3.ts): a binary file and
 * an unpacked archive go to the bucket, come back byte for byte, and leave the bucket with
 * removeResources and with the item.
 */
import { randomBytes } from 'node:crypto';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3ServerAvailable, startS3TestServer, useS3Credentials, type S3TestServer } from '../../../../test/support/s3.ts';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { zip } from '../../../../test/support/zip.ts';
import type { S3BlobSetting } from '../../config.ts';

let s3: S3TestServer;
let setting: S3BlobSetting;
let svc: TestService;
let token: string;

beforeAll(async () => {
  if (!s3ServerAvailable) return;
  s3 = await startS3TestServer();
  useS3Credentials(s3);
  setting = await s3.bucket(`resources-${randomBytes(4).toString('hex')}`, 'portal/');
  svc = await startService({ config: { blobStore: setting } });
  token = await svc.tokenFor('user1');
}, 120_000);
afterAll(async () => {
  await svc?.close();
  await s3?.stop();
});

const objects = async () => ((await s3.client.send(new ListObjectsV2Command({ Bucket: setting.bucket }))).Contents ?? []).length;
const read = (itemId: string, path: string) => svc.app.inject({ method: 'GET', url: `/sharing/rest/content/items/${itemId}/resources/${path}?token=${token}` });

describe.skipIf(!s3ServerAvailable)('item resources in the object store', () => {
  it('stores, serves and removes resources as bucket objects', async () => {
    const { id } = await svc.post('content/users/user1/addItem', { title: 'On S3', type: 'Web Mapping Application', text: '{}' }, token);
    const before = await objects();
    const binary = randomBytes(200_000);
    const added = await svc.postForm(
      `content/users/user1/items/${id}/addResources`,
      { file: [new Blob([new Uint8Array(binary)]), 'blob.bin'], resourcesPrefix: 'raw' },
      token,
    );
    expect(added).toMatchObject({ success: true });
    const archive = zip([
      { name: 'site/index.html', data: Buffer.from('<p>s3</p>'), deflate: true },
      { name: 'site/img/a.bin', data: Buffer.from([9, 8, 7]) },
    ]);
    expect(
      await svc.postForm(`content/users/user1/items/${id}/addResources`, { file: [new Blob([new Uint8Array(archive)]), 'site.zip'], archive: 'true' }, token),
    ).toMatchObject({
      success: true,
    });
    expect(await objects()).toBe(before + 3);

    const back = await read(id as string, 'raw/blob.bin');
    expect(back.statusCode).toBe(200);
    expect(back.rawPayload.equals(binary)).toBe(true);
    expect((await read(id as string, 'site/index.html')).body).toBe('<p>s3</p>');
    expect((await read(id as string, 'site/none.html')).statusCode).toBe(404);

    expect(await svc.post(`content/users/user1/items/${id}/removeResources`, { resource: 'raw/blob.bin' }, token)).toEqual({ success: true });
    expect(await objects()).toBe(before + 2);
    // For good: a plain delete keeps the resources' objects for the recycle bin.
    expect(await svc.post(`content/users/user1/items/${id}/delete`, { permanentDelete: 'true' }, token)).toMatchObject({ success: true });
    // The item's data was text (no object): nothing of it stays in the bucket.
    expect(await objects()).toBe(before);
  });
});
