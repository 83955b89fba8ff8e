/**
 * addPart with its token first in an object store (a real Ceph gateway on loopback:
 * test/support/s3.ts): the part goes into the item's upload there as store parts while it arrives,
 * each attempt under store part numbers no earlier attempt had (storeNumbers.ts). A client gone
 * after two store parts reached the store, then a shorter part sent again: the commit lists only the
 * latest attempt and succeeds with its bytes (on Ceph, numbers sent twice made completion fail).
 * The splitter holds a bounded amount, whatever the part's size. Disk: streamedParts.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { ListMultipartUploadsCommand, ListObjectsV2Command, ListPartsCommand } from '@aws-sdk/client-s3';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { s3ServerAvailable, startS3TestServer, useS3Credentials, type S3TestServer } from '../../../../test/support/s3.ts';
import { startService } from '../../../../test/support/service.ts';
import type { S3BlobSetting } from '../../config.ts';
import { storeUploadWithNumbers } from './storeNumbers.ts';
import { STREAM_PART_BYTES } from './streamedParts.ts';
import { abortMidPart, addPart, commitAndRead, MiB, partRows, serviceUnderTest, startUpload } from './streamedParts.testkit.ts';

let s3: S3TestServer;
let setting: S3BlobSetting;
const t = serviceUnderTest(async () => {
  s3 = await startS3TestServer();
  useS3Credentials(s3);
  setting = await s3.bucket(`streamed-${randomBytes(4).toString('hex')}`, 'portal/');
  return startService({ config: { blobStore: setting } });
});
afterAll(() => s3?.stop());

const storeUpload = async (id: string) =>
  (await t.svc.db.query<{ blob_key: string; upload_id: string }>('SELECT blob_key, upload_id FROM item_store_uploads WHERE item_id = $1', [id]))[0];
const objectKey = (blobKey: string) => `portal/${blobKey.slice(0, 2)}/${blobKey}`;
/** The parts the store holds for the item's upload (none before it starts). */
async function storeParts(id: string) {
  const upload = await storeUpload(id);
  if (!upload) return [];
  return (await s3.client.send(new ListPartsCommand({ Bucket: setting.bucket, Key: objectKey(upload.blob_key), UploadId: upload.upload_id }))).Parts ?? [];
}
const objects = async () => ((await s3.client.send(new ListObjectsV2Command({ Bucket: setting.bucket }))).Contents ?? []).map((o) => o.Key!);
const unfinishedUploads = async () => (await s3.client.send(new ListMultipartUploadsCommand({ Bucket: setting.bucket }))).Uploads ?? [];

describe.skipIf(!s3ServerAvailable)('a part with its token first, in an object store', () => {
  it('goes into the item’s upload as store parts while it arrives, in item-part order whatever the arrival order', async () => {
    const id = await startUpload(t.svc, t.token);
    const parts = [randomBytes(30 * MiB), randomBytes(6 * MiB), randomBytes(1000)];
    for (const n of [2, 1, 3]) expect(await addPart(t.rest, id, n, parts[n - 1], t.token)).toEqual({ success: true, id });
    expect(t.tmpSeen).toEqual([]);
    // Part 1 as store parts of 6 MiB (the last takes the rest) in its block 1–16, part 2 in 17–32, part 3 (small) a file.
    const rows = await partRows(t.svc, id);
    expect(rows.map((r) => [r.part_num, r.store_parts?.map((p) => p.n) ?? null, !!r.blob_key])).toEqual([
      [1, [1, 2, 3, 4, 5], false],
      [2, [17], false],
      [3, null, true],
    ]);
    expect((await storeParts(id)).map((p) => p.Size)).toEqual([6 * MiB, 6 * MiB, 6 * MiB, 6 * MiB, 6 * MiB, 6 * MiB]);
    const read = await commitAndRead(t.svc, t.token, id, 'Streamed');
    expect(read.committed).toEqual({ success: true, id });
    expect(read.bytes.equals(Buffer.concat(parts))).toBe(true);
  }, 120_000);

  it('cut off by its client after two store parts reached the store: the shorter part sent again commits with its bytes', async () => {
    const id = await startUpload(t.svc, t.token);
    await abortMidPart(t.rest, id, t.token, 30 * MiB, 24 * MiB, async () => (await storeParts(id)).length >= 2);
    // The request ends once the store part it was sending is in: wait until the store's list stops changing.
    let seen = '';
    await vi.waitFor(
      async () => {
        const now = JSON.stringify(await storeParts(id));
        const settled = now === seen;
        seen = now;
        expect(settled).toBe(true);
      },
      { timeout: 30_000, interval: 1000 },
    );
    const orphans = (await storeParts(id)).map((p) => p.PartNumber);
    expect(orphans.length).toBeGreaterThanOrEqual(2);
    expect(await partRows(t.svc, id)).toEqual([]);
    const again = [randomBytes(6 * MiB), randomBytes(7 * MiB)];
    for (const n of [1, 2]) expect(await addPart(t.rest, id, n, again[n - 1], t.token)).toEqual({ success: true, id });
    // The attempt sent again took numbers the cut one never had.
    const [first] = await partRows(t.svc, id);
    expect(first.store_parts!.map((p) => p.n).filter((n) => orphans.includes(n))).toEqual([]);
    const upload = await storeUpload(id);
    const read = await commitAndRead(t.svc, t.token, id, 'After a cut');
    expect(read.committed).toEqual({ success: true, id });
    expect(read.bytes.equals(Buffer.concat(again))).toBe(true);
    // The upload completed with the cut attempt's parts was only a step: neither it nor the upload is left.
    expect(await unfinishedUploads()).toEqual([]);
    expect(await objects()).not.toContain(objectKey(upload.blob_key));
  }, 180_000);

  it('a part sent twice: the second attempt is the one committed', async () => {
    const id = await startUpload(t.svc, t.token);
    const [old, kept, last] = [randomBytes(13 * MiB), randomBytes(7 * MiB), randomBytes(100)];
    expect(await addPart(t.rest, id, 1, old, t.token)).toEqual({ success: true, id });
    expect(await addPart(t.rest, id, 1, kept, t.token)).toEqual({ success: true, id });
    expect(await addPart(t.rest, id, 2, last, t.token)).toEqual({ success: true, id });
    const read = await commitAndRead(t.svc, t.token, id, 'Sent twice');
    expect(read.committed).toEqual({ success: true, id });
    expect(read.bytes.equals(Buffer.concat([kept, last]))).toBe(true);
  }, 120_000);

  it('the store parts in flight stay bounded: the part keeps flowing while at most about 3 store parts are unsent', async () => {
    const id = await startUpload(t.svc, t.token);
    const { upload, numbers } = await storeUploadWithNumbers(t.svc.app.portal, id, 1, 16);
    const total = 90 * MiB;
    const bound = 2 * STREAM_PART_BYTES + 5 * MiB + MiB;
    let stored = 0;
    // Yields 1 MiB at a time, but never more than `bound` past what the store has taken: a sender
    // that held the whole part (or more than the bound) before sending would wait here for ever.
    async function* source() {
      for (let yielded = 0; yielded < total; yielded += MiB) {
        if (yielded + MiB - stored > bound)
          await vi.waitFor(
            async () => {
              stored = (await storeParts(id)).reduce((sum, p) => sum + (p.Size ?? 0), 0);
              expect(yielded + MiB - stored).toBeLessThanOrEqual(bound);
            },
            { timeout: 30_000, interval: 100 },
          );
        yield Buffer.alloc(MiB, yielded / MiB);
      }
    }
    const sent = await t.svc.app.portal.blobs.multipart!.putStream(upload.blob_key, upload.upload_id, numbers!, STREAM_PART_BYTES, source());
    expect('parts' in sent && sent.size).toBe(total);
  }, 180_000);
});

/**
 * Makes the commit's last step (recording the completed item) fail once for `id`, after the store
 * completed its upload: a database failure at that moment, injected as a trigger.
 */
async function failNextCompletion(id: string): Promise<() => Promise<void>> {
  await t.svc.db.query(`CREATE OR REPLACE FUNCTION fail_completion() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN IF NEW.status = 'completed' AND NEW.id = '${id}' THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END $$`);
  await t.svc.db.query('CREATE TRIGGER fail_completion BEFORE UPDATE ON items FOR EACH ROW EXECUTE FUNCTION fail_completion()');
  return async () => {
    await t.svc.db.query('DROP TRIGGER fail_completion ON items');
    await t.svc.db.query('DROP FUNCTION fail_completion()');
  };
}

describe.skipIf(!s3ServerAvailable)('a commit that failed after the store completed its upload', () => {
  it('keeps the parts: a part sent again afterwards and another commit give the file, and nothing is left in the store', async () => {
    const id = await startUpload(t.svc, t.token);
    const parts = [randomBytes(7 * MiB), randomBytes(6 * MiB), randomBytes(1000)];
    for (const n of [1, 2, 3]) expect(await addPart(t.rest, id, n, parts[n - 1], t.token)).toEqual({ success: true, id });
    const upload = await storeUpload(id);
    const restore = await failNextCompletion(id);
    const failed = (await t.svc.post(`content/users/user1/items/${id}/commit`, { type: 'Image', title: 'Failed once' }, t.token)) as { error?: unknown };
    await restore();
    expect(failed.error).toBeDefined();
    expect(await t.svc.post(`content/users/user1/items/${id}/status`, {}, t.token)).toMatchObject({ status: 'partial' });
    // The store's upload is complete now: it takes no more parts, so this one is stored apart.
    expect((await unfinishedUploads()).map((u) => u.Key)).not.toContain(objectKey(upload.blob_key));
    parts[1] = randomBytes(6 * MiB);
    expect(await addPart(t.rest, id, 2, parts[1], t.token)).toEqual({ success: true, id });
    const read = await commitAndRead(t.svc, t.token, id, 'Committed again');
    expect(read.committed).toEqual({ success: true, id });
    expect(read.bytes.equals(Buffer.concat(parts))).toBe(true);
    expect(await objects()).not.toContain(objectKey(upload.blob_key));
  }, 180_000);

  it('a commit tried again with no part sent again joins the parts from the completed file', async () => {
    const id = await startUpload(t.svc, t.token);
    const parts = [randomBytes(6 * MiB), randomBytes(2000)];
    for (const n of [1, 2]) expect(await addPart(t.rest, id, n, parts[n - 1], t.token)).toEqual({ success: true, id });
    const restore = await failNextCompletion(id);
    expect(
      ((await t.svc.post(`content/users/user1/items/${id}/commit`, { type: 'Image', title: 'Failed once' }, t.token)) as { error?: unknown }).error,
    ).toBeDefined();
    await restore();
    const read = await commitAndRead(t.svc, t.token, id, 'Committed again');
    expect(read.committed).toEqual({ success: true, id });
    expect(read.bytes.equals(Buffer.concat(parts))).toBe(true);
  }, 180_000);
});

describe.skipIf(!s3ServerAvailable)('a part with its token after the file (rest-js addItemPart), in an object store', () => {
  it('comes through a temporary file into a fresh store part and commits as sent', async () => {
    const id = await startUpload(t.svc, t.token);
    const parts = [randomBytes(12 * MiB), randomBytes(5 * MiB)];
    for (const n of [1, 2]) expect(await addPart(t.rest, id, n, parts[n - 1], t.token, 'last')).toEqual({ success: true, id });
    expect(t.tmpSeen.length).toBeGreaterThan(0);
    expect((await partRows(t.svc, id)).map((r) => r.store_parts?.map((p) => p.n))).toEqual([[1], [17]]);
    const read = await commitAndRead(t.svc, t.token, id, 'Token last');
    expect(read.committed).toEqual({ success: true, id });
    expect(read.bytes.equals(Buffer.concat(parts))).toBe(true);
  }, 120_000);
});
