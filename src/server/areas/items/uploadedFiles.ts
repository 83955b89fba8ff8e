/**
 * The file of addItem and update taken as it arrives (FileParams.streamTo) when the token came first
 * and the store is on disk: written once, in its place (a `.partial` renamed at its end), instead of
 * into a temporary file first. In an object store a single file of unknown length would go through
 * lib-storage's buffered parts (up to four of 8 MiB per request), more memory than the temporary
 * file saves; there it is spooled, then sent with its length known (addPart streams: streamedParts.ts).
 */
import { Readable } from 'node:stream';
import type { PortalContext } from '../../context.ts';
import type { PartIntake, PartSink } from '../../http/multipart.ts';
import type { StoredUpload, UploadedFile } from '../../http/params.ts';

export async function streamItemFile({ portal, field }: PartIntake): Promise<PartSink | undefined> {
  if (field !== 'file' || portal.blobs.multipart) return undefined;
  return (source) => storeStreamAsFile(portal, source);
}

/** Writes the stream as a new file of the store; nothing is kept if it fails. */
export async function storeStreamAsFile(ctx: PortalContext, source: AsyncIterable<Buffer> | Buffer[]): Promise<StoredUpload> {
  const blobKey = ctx.blobs.newKey();
  const size = await ctx.blobs.write(blobKey, Readable.from(source));
  return { blobKey, storeParts: [], size };
}

/**
 * The uploaded file as a file of the store, from then on the caller's to name in a row (or remove):
 * the one stored while it arrived, claimed, or the temporary file moved in.
 */
export async function keepUploadedFile(ctx: PortalContext, file: UploadedFile): Promise<{ key: string; size: number }> {
  if (file.stored?.blobKey) {
    file.stored.claimed = true;
    return { key: file.stored.blobKey, size: file.stored.size };
  }
  const key = ctx.blobs.newKey();
  return { key, size: await ctx.blobs.adopt(key, file.path) };
}
