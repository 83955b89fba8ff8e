/**
 * A stream of unknown length sent as the parts of a store's multipart upload while it arrives.
 * S3's UploadPart needs each part's length before its bytes, and an item part's length is known only
 * at its end, so the stream is cut into parts of `chunkBytes`, each held in memory until sent. A
 * part is cut only once at least `minPartBytes` follow it, so the last part (which takes the rest)
 * is never below the store's minimum. One part is in flight while the next arrives, and reading
 * waits for it once a part's worth is held: at most max(2 × chunkBytes, chunkBytes + minPartBytes)
 * (plus one chunk of the source) are held, whatever the stream's length — three uploads at once stay
 * within the portal's 64 MB budget for a large upload (`npm run bench:object-store`).
 *
 * What is held is copied out of the source's chunks into blocks reused from one pool (blockPool
 * below): a request's socket chunks then die young, where holding them for a part's time had them
 * promoted and the external memory they added set off a full garbage collection every few dozen
 * megabytes (a third of the portal's CPU time in `npm run bench:object-store`).
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

const BLOCK_BYTES = 1024 * 1024;
/** Free blocks kept for the next parts (three uploads' worth); more go back to the allocator. */
const POOL_BLOCKS = 56;
/** A pool not used for this long gives its blocks back (the memory of an upload is not kept for ever). */
const POOL_IDLE_MS = 30_000;

/** A pooled block and the held pieces (and the filling) that still use it. */
interface Block {
  bytes: Buffer;
  users: number;
}

/** Held bytes: a view of a block. */
interface Piece {
  block: Block;
  start: number;
  end: number;
}

const blockPool = {
  free: [] as Buffer[],
  idle: undefined as NodeJS.Timeout | undefined,
  get(): Block {
    return { bytes: this.free.pop() ?? Buffer.allocUnsafeSlow(BLOCK_BYTES), users: 1 };
  },
  release(block: Block): void {
    if (--block.users > 0) return;
    if (this.free.length < POOL_BLOCKS) this.free.push(block.bytes);
    if (this.idle) this.idle.refresh();
    else this.idle = setTimeout(() => this.trim(), POOL_IDLE_MS).unref();
  },
  trim(): void {
    this.free.length = 0;
    this.idle = undefined;
  },
};

const view = (p: Piece) => p.block.bytes.subarray(p.start, p.end);

/**
 * The bytes of `source` as parts numbered from cut.first; `sendPart` sends one (its pieces, as they
 * are held: not copied into one buffer, which doubled the collector's work in the benchmark) and
 * answers its ETag. The pieces' blocks are reused once it has settled.
 */
export async function sendInParts(
  source: AsyncIterable<Buffer>,
  cut: PartCut,
  sendPart: (n: number, body: Buffer[], length: number) => Promise<string>,
): Promise<StreamedParts> {
  const held: Piece[] = [];
  let heldBytes = 0;
  let size = 0;
  const parts: { n: number; etag: string }[] = [];
  // The block being filled (its own use counted until it is full) and how far.
  let filling: Block | undefined;
  let filled = 0;
  const hold = (chunk: Buffer) => {
    for (let at = 0; at < chunk.length;) {
      if (!filling || filled === BLOCK_BYTES) {
        if (filling) blockPool.release(filling);
        filling = blockPool.get();
        filled = 0;
      }
      const n = chunk.copy(filling.bytes, filled, at);
      const last = held.at(-1);
      // Bytes next to the last piece's in the same block extend it: pieces of about a block each.
      if (last?.block === filling && last.end === filled) last.end += n;
      else {
        filling.users++;
        held.push({ block: filling, start: filled, end: filled + n });
      }
      filled += n;
      at += n;
    }
    heldBytes += chunk.length;
  };
  // The first `bytes` held.
  const take = (bytes: number): Piece[] => {
    const out: Piece[] = [];
    for (let need = bytes; need > 0;) {
      const piece = held[0];
      const length = piece.end - piece.start;
      if (length <= need) {
        out.push(piece);
        held.shift();
        need -= length;
      } else {
        // Split: both halves use the block.
        piece.block.users++;
        out.push({ block: piece.block, start: piece.start, end: piece.start + need });
        piece.start += need;
        need = 0;
      }
    }
    heldBytes -= bytes;
    return out;
  };
  const send = async (pieces: Piece[], length: number) => {
    try {
      // Numbers are handed out per attempt and never reused, so running past them is a caller's bug.
      if (parts.length >= cut.count) throw new Error(`the stream needs more than its ${cut.count} store parts`);
      const n = cut.first + parts.length;
      parts.push({ n, etag: await sendPart(n, pieces.map(view), length) });
    } finally {
      for (const p of pieces) blockPool.release(p.block);
    }
  };
  const releaseHeld = () => {
    for (const p of held.splice(0)) blockPool.release(p.block);
    if (filling) blockPool.release(filling);
    filling = undefined;
  };
  let inFlight: Promise<void> | undefined;
  try {
    for await (const chunk of source) {
      hold(chunk);
      size += chunk.length;
      // A part's worth held while the last is still on its way: let it land before reading more.
      if (inFlight && heldBytes >= cut.chunkBytes) {
        await inFlight;
        inFlight = undefined;
      }
      if (heldBytes >= cut.chunkBytes + cut.minPartBytes) {
        inFlight = send(take(cut.chunkBytes), cut.chunkBytes);
        // Seen at the next await (the loop's or the one below); not an unhandled rejection meanwhile.
        inFlight.catch(() => undefined);
      }
    }
    await inFlight;
    if (!parts.length && size < cut.minPartBytes) return { small: Buffer.concat(held.map(view), heldBytes) };
    const rest = heldBytes;
    if (rest) await send(take(rest), rest);
    return { parts, size };
  } catch (err) {
    // The stream failed (the client gone, over its cap): end only once the part in flight is
    // settled, so that no request to the store outlives the attempt it belongs to.
    await inFlight?.catch(() => undefined);
    throw err;
  } finally {
    releaseHeld();
  }
}
