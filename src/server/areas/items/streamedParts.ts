/**
 * addPart's file while it arrives (FileParams.streamTo, http/multipart.ts), once a token before the
 * file named the caller: the upload is checked to be the caller's and in progress before any byte
 * is stored, then the part is stored as it comes — on disk as a file of its own (written as a
 * `.partial`, renamed at its end), in an object store as fresh store parts of the item's upload
 * there (storeNumbers.ts). No temporary file, and no whole part in memory.
 */
import type { PartIntake, PartSink } from '../../http/multipart.ts';
import { wireInt } from '../../../shared/contract/wire.ts';
import { notPartial, storeUploadWithNumbers } from './storeNumbers.ts';
import { storeStreamAsFile } from './uploadedFiles.ts';
import { ownUpload } from './uploads.ts';

const MiB = 1024 * 1024;
/**
 * The store parts a streamed item part is cut into, each held in memory until sent: one in flight
 * while the next and S3's 5 MiB minimum arrive — about 17 MiB per request at most.
 */
export const STREAM_PART_BYTES = 6 * MiB;

const partNumParam = wireInt(1, 10_000);

/**
 * Undefined — the part comes as a temporary file, as when the token follows the file — where
 * streaming cannot keep memory bounded or the store's rules: the part's number not given before the
 * file, or in an object store a request that states no length (chunked: the store parts it needs
 * are unknown), a length over the part's cap, or more store parts than its block has left.
 */
export async function streamPart({ req, portal: ctx, caller, params, limit }: PartIntake): Promise<PartSink | undefined> {
  const path = req.params as { username: string; itemId: string };
  const partNum = partNumParam.safeParse(params.partNum);
  if (!partNum.success) return undefined;
  const row = await ownUpload(ctx.db, caller, path.itemId);
  if (row.status !== 'partial') throw notPartial(row);
  const multipart = ctx.blobs.multipart;
  const length = Number(req.headers['content-length']);
  if (!multipart || length < multipart.minPartBytes) return (source) => storeStreamAsFile(ctx, source);
  if (!Number.isSafeInteger(length) || length > limit + LENGTH_SLACK) return undefined;
  // The part is shorter than the request: these numbers hold it whatever the fields around it.
  const { upload, numbers } = await storeUploadWithNumbers(ctx, path.itemId, partNum.data, Math.ceil(length / STREAM_PART_BYTES));
  if (!numbers) return undefined;
  return async (source) => {
    const sent = await multipart.putStream(upload.blob_key, upload.upload_id, numbers, STREAM_PART_BYTES, source);
    if ('small' in sent) return storeStreamAsFile(ctx, [sent.small]);
    return { blobKey: null, storeParts: sent.parts, size: sent.size };
  };
}

/** A request is its part plus boundaries and a few fields: a part at its cap still streams. */
const LENGTH_SLACK = 64 * 1024;
