/**
 * A stream of unknown length sent as the parts of a store's multipart upload while it arrives.
 * S3's UploadPart needs each part's length before its bytes, and an item part's length is known only
 * at its end, so the stream is cut into parts of `chunkBytes`, each held in memory until sent. A
 * part is cut only once at least `minPartBytes` follow it, so the last part (which takes the rest)
 * is never below the store's minimum. One part is in flight while the next arrives: at most
 * 2 × chunkBytes + minPartBytes (plus one chunk of the source) are held, whatever the stream's length.
 */

/** A stream sent by sendInParts: the parts it became, or the whole of one too short for a part. */
export type StreamedParts = { parts: { n: number; etag: string }[]; size: number } | { small: Buffer };

export interface PartCut {
  /** The store part numbers this stream may use: first, first + 1, … (at most count). */
  first: number;
  count: number;
  chunkBytes: number;
  minPartBytes: number;
}

/**
 * The bytes of `source` as parts numbered from cut.first; `sendPart` sends one (its chunks, as they
 * came: not copied into one buffer, which doubled the collector's work in the benchmark) and answers its ETag.
 */
export async function sendInParts(
  source: AsyncIterable<Buffer>,
  cut: PartCut,
  sendPart: (n: number, body: Buffer[], length: number) => Promise<string>,
): Promise<StreamedParts> {
  const held: Buffer[] = [];
  let heldBytes = 0;
  let size = 0;
  const parts: { n: number; etag: string }[] = [];
  // The first `bytes` held.
  const take = (bytes: number): Buffer[] => {
    const out: Buffer[] = [];
    for (let need = bytes; need > 0;) {
      const chunk = held[0];
      if (chunk.length <= need) {
        out.push(chunk);
        held.shift();
        need -= chunk.length;
      } else {
        out.push(chunk.subarray(0, need));
        held[0] = chunk.subarray(need);
        need = 0;
      }
    }
    heldBytes -= bytes;
    return out;
  };
  const send = async (body: Buffer[], length: number) => {
    // Numbers are handed out per attempt and never reused, so running past them is a caller's bug.
    if (parts.length >= cut.count) throw new Error(`the stream needs more than its ${cut.count} store parts`);
    const n = cut.first + parts.length;
    parts.push({ n, etag: await sendPart(n, body, length) });
  };
  let inFlight: Promise<void> | undefined;
  try {
    for await (const chunk of source) {
      held.push(chunk);
      heldBytes += chunk.length;
      size += chunk.length;
      if (heldBytes >= cut.chunkBytes + cut.minPartBytes) {
        await inFlight;
        inFlight = send(take(cut.chunkBytes), cut.chunkBytes);
        // Seen at the next await (the loop's or the one below); not an unhandled rejection meanwhile.
        inFlight.catch(() => undefined);
      }
    }
  } catch (err) {
    // The stream failed (the client gone, over its cap): end only once the part in flight is
    // settled, so that no request to the store outlives the attempt it belongs to.
    await inFlight?.catch(() => undefined);
    throw err;
  }
  await inFlight;
  if (!parts.length && size < cut.minPartBytes) return { small: Buffer.concat(held, heldBytes) };
  const rest = heldBytes;
  if (rest) await send(take(rest), rest);
  return { parts, size };
}
