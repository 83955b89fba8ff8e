/**
 * Item info from packages (spec §2 Item): a zip (or a package built on zip: .sd, .spk, .lpk, .mpk,
 * .tpk, .vtpk …, recognised by its first bytes, not its name) holding an `esriinfo/` folder. Every
 * file under it is copied into the blob store and served at content/items/<id>/info/<path>;
 * `iteminfo.xml` is the item card (name, title, thumbnail, documentation).
 *
 * An archive is text from anyone (performance notes §6.5): no entry may leave the folder (`..`,
 * absolute paths, backslashes, drive letters and symbolic links are refused), and entry count,
 * total inflated size and each entry's compression ratio are bounded — checked against the headers
 * first and again on the bytes actually inflated, never trusting the headers alone. The bounds are
 * Config esriInfo (ESRIINFO_DEFAULTS when absent).
 */
import { Transform, type TransformCallback } from 'node:stream';
import type yauzl from 'yauzl';
import { ESRIINFO_DEFAULTS } from '../../config.ts';
import type { PortalContext } from '../../context.ts';
import { ApiError } from '../../http/errors.ts';
import { removeBlobsQuietly } from '../../store/blobs.ts';
import type { Queryable } from '../../store/db.ts';
import { deleteInfoFiles, putInfoFile } from './repo/infoFiles.ts';

export class UnsafeArchive extends ApiError {
  constructor(detail: string) {
    super(400, 'The package cannot be accepted: it holds an unsafe entry.', [detail], undefined, { file: detail });
  }
}

/** `PK\x03\x04`: a zip's first local file header, in a file's first bytes. */
export function startsLikeZip(head: Buffer): boolean {
  return head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;
}

export interface ItemCard {
  name?: string;
  title?: string;
  thumbnail?: string;
  documentation?: string;
}

export interface ExtractResult {
  files: string[];
  card: ItemCard;
}

/** A path under esriinfo/ that stays there: plain segments only. */
export function safeRelativePath(rel: string): string | null {
  if (!rel || rel.length > 512 || rel.includes('\\') || rel.includes('\0') || rel.startsWith('/') || /^[A-Za-z]:/.test(rel)) return null;
  const segments = rel.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..' || s.includes(':'))) return null;
  return segments.join('/');
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** yauzl is imported with the first archive read, not at start. */
async function openZip(path: string): Promise<yauzl.ZipFile> {
  const { open } = (await import('yauzl')).default;
  return new Promise((resolve, reject) =>
    open(path, { lazyEntries: true, autoClose: true, decodeStrings: true, validateEntrySizes: true, strictFileNames: true }, (err, zip) =>
      err ? reject(err) : resolve(zip),
    ),
  );
}

/** yauzl's refusals of a file name (absolute, `..`, backslash): the archive is unsafe, not merely unreadable. */
const UNSAFE_NAME = /invalid relative path|absolute path|invalid characters in fileName|strictFileNames/i;

/** What an archive may inflate to: entries, bytes altogether and per file, and the ratio per entry. */
export interface ZipLimits {
  maxEntries: number;
  maxTotalBytes: number;
  maxRatio: number;
  /** Inflated bytes of any one file (none: only the total bounds it). */
  maxEntryBytes?: number;
}

/** A file of an archive, written to the blob store under `key`. */
export interface ExtractedFile {
  path: string;
  key: string;
  size: number;
}

/**
 * Writes the files of the zip at `zipPath` under `folder` (a prefix such as `esriinfo/`, matched in
 * any case; '' for every file) into the blob store, each at its path below the folder, within
 * `limits`. The file at `keepText` (lower-case path) is also answered as text when it is at most
 * `maxKeptBytes`. Not a readable zip → null. An unsafe archive → UnsafeArchive (400), and no file
 * is kept. Item packages (esriinfo) and item resources (addResources archive=true) both read
 * archives through here.
 */
export async function extractZipFiles(
  ctx: PortalContext,
  zipPath: string,
  folder: string,
  limits: ZipLimits,
  keep?: { path: string; maxBytes: number },
): Promise<{ files: ExtractedFile[]; keptText?: string } | null> {
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(zipPath);
  } catch (err) {
    if (UNSAFE_NAME.test((err as Error).message)) throw new UnsafeArchive((err as Error).message);
    return null;
  }
  const written: ExtractedFile[] = [];
  const prefix = folder.toLowerCase();
  const where = folder ? folder.replace(/\/$/, '') : 'the archive';
  let keptText: string | undefined;
  let entries = 0;
  let total = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      const fail = (err: Error) => {
        zip.close();
        reject(err);
      };
      zip.on('error', (err: Error) => reject(UNSAFE_NAME.test(err.message) ? new UnsafeArchive(err.message) : err));
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        const name = entry.fileName;
        if (!name.toLowerCase().startsWith(prefix)) return zip.readEntry();
        if (++entries > limits.maxEntries) return fail(new UnsafeArchive(`${where} holds more than ${limits.maxEntries} entries`));
        if (((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK) return fail(new UnsafeArchive(`'${name}' is a symbolic link`));
        if (name.endsWith('/')) return zip.readEntry();
        const rel = safeRelativePath(name.slice(folder.length));
        if (!rel) return fail(new UnsafeArchive(`'${name}' leaves ${folder ? `the ${where} folder` : 'the archive'}`));
        // The headers first …
        if (total + entry.uncompressedSize > limits.maxTotalBytes)
          return fail(new UnsafeArchive(`${where} inflates to more than ${limits.maxTotalBytes} bytes`));
        if (limits.maxEntryBytes !== undefined && entry.uncompressedSize > limits.maxEntryBytes) {
          return fail(new UnsafeArchive(`'${name}' inflates to more than ${limits.maxEntryBytes} bytes`));
        }
        if (entry.uncompressedSize > limits.maxRatio * Math.max(entry.compressedSize, 1)) {
          return fail(new UnsafeArchive(`'${name}' is compressed more than ${limits.maxRatio}:1`));
        }
        zip.openReadStream(entry, (err, stream) => {
          if (err) return fail(err);
          // … then the bytes actually inflated.
          let seen = 0;
          const limit = Math.min(
            limits.maxRatio * Math.max(entry.compressedSize, 1),
            limits.maxTotalBytes - total,
            limits.maxEntryBytes ?? Number.MAX_SAFE_INTEGER,
          );
          const chunks: Buffer[] = [];
          const isKept = !!keep && rel.toLowerCase() === keep.path;
          const guard = new Transform({
            transform(chunk: Buffer, _enc, cb: TransformCallback) {
              seen += chunk.length;
              if (seen > limit) return cb(new UnsafeArchive(`'${name}' inflates beyond its limits`));
              if (isKept && seen <= keep.maxBytes) chunks.push(chunk);
              cb(null, chunk);
            },
          });
          stream.on('error', (e) => guard.destroy(e));
          const key = ctx.blobs.newKey();
          ctx.blobs
            .write(key, stream.pipe(guard))
            .then((size) => {
              total += size;
              written.push({ path: rel, key, size });
              if (isKept && seen <= keep.maxBytes) keptText = Buffer.concat(chunks).toString('utf8');
              zip.readEntry();
            })
            .catch((e: Error) => fail(e instanceof ApiError ? e : /too many bytes|too few bytes|invalid/i.test(e.message) ? new UnsafeArchive(e.message) : e));
        });
      });
      zip.readEntry();
    });
  } catch (err) {
    await removeBlobsQuietly(
      ctx.blobs,
      written.map((w) => w.key),
      ctx.log,
    );
    throw err;
  }
  return { files: written, keptText };
}

/**
 * Extracts esriinfo/ of the zip at `zipPath` into the blob store and item_info_files (inside the
 * caller's transaction). Not a readable zip → nothing extracted. An unsafe archive → UnsafeArchive
 * (400), and nothing kept.
 */
export async function extractEsriinfo(ctx: PortalContext, q: Queryable, itemId: string, zipPath: string): Promise<ExtractResult> {
  const limits = ctx.config.esriInfo ?? ESRIINFO_DEFAULTS;
  const extracted = await extractZipFiles(ctx, zipPath, 'esriinfo/', limits, { path: 'iteminfo.xml', maxBytes: limits.maxCardBytes });
  if (!extracted) return { files: [], card: {} };
  const { files: written, keptText: cardXml } = extracted;
  if (!written.length) return { files: [], card: {} };
  let card: ItemCard = {};
  try {
    card = cardXml ? parseItemCard(cardXml) : {};
  } catch (err) {
    // Refused before anything is recorded: no row, and no blob left behind.
    await removeBlobsQuietly(
      ctx.blobs,
      written.map((w) => w.key),
      ctx.log,
    );
    throw err;
  }
  // A new package replaces the info files of the previous one.
  await deleteInfoFiles(q, itemId);
  for (const w of written) await putInfoFile(q, itemId, w.path, w.key, w.size);
  const files = written.map((w) => w.path);
  const present = new Set(files);
  const relPath = (p: string | undefined) => {
    const norm = p ? safeRelativePath(p.trim().replace(/^\.\//, '')) : null;
    return norm && present.has(norm) ? norm : undefined;
  };
  return {
    files,
    card: {
      ...(card.name ? { name: card.name } : {}),
      ...(card.title ? { title: card.title } : {}),
      ...(relPath(card.thumbnail) ? { thumbnail: relPath(card.thumbnail) } : {}),
      ...(relPath(card.documentation) ? { documentation: relPath(card.documentation) } : {}),
    },
  };
}

/** The card is not XML: 400 naming the file (not a 500 from the database refusing a NUL later). */
export class InvalidItemCard extends ApiError {
  constructor(detail: string) {
    super(400, 'The package cannot be accepted: its esriinfo/iteminfo.xml is not well-formed XML.', [detail], undefined, {
      file: `esriinfo/iteminfo.xml ${detail}`,
    });
  }
}

/** XML 1.0 `Char`: tab, line feed, carriage return, U+0020–U+D7FF, U+E000–U+FFFD, U+10000–U+10FFFF. */
const isXmlChar = (c: number) =>
  c === 0x9 || c === 0xa || c === 0xd || (c >= 0x20 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff);
/** A character XML 1.0 does not allow, written raw (lone surrogates included). */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;

/** The character a reference stands for; well-formedness forbids referring to a non-`Char` (XML 1.0 §4.1 WFC: Legal Character). */
function charRef(ref: string, digits: string, radix: 10 | 16): string {
  const code = digits.length > 8 ? Infinity : parseInt(digits, radix);
  if (!isXmlChar(code)) throw new InvalidItemCard(`holds the reference ${ref} to a character XML does not allow`);
  return String.fromCodePoint(code);
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
function xmlText(raw: string): string {
  const bad = NOT_XML_CHAR.exec(raw);
  if (bad)
    throw new InvalidItemCard(`holds the character U+${(bad[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}, which XML does not allow`);
  const cdata = /^\s*<!\[CDATA\[([\s\S]*?)\]\]>\s*$/.exec(raw);
  if (cdata) return cdata[1].trim();
  // One pass, so `&amp;#0;` stays the text "&#0;" rather than becoming a reference.
  return raw
    .replace(/&(?:(lt|gt|amp|quot|apos)|#(\d+)|#x([0-9a-f]+));/gi, (ref: string, name?: string, dec?: string, hex?: string) =>
      name ? (ENTITIES[name] ?? ref) : dec ? charRef(ref, dec.replace(/^0+(?=.)/, ''), 10) : charRef(ref, hex!.replace(/^0+(?=.)/, ''), 16),
    )
    .trim();
}

const OPEN_TAGS: Record<string, RegExp> = {
  name: /<name[\s>]/gi,
  title: /<title[\s>]/gi,
  thumbnail: /<thumbnail[\s>]/gi,
  documentation: /<documentation[\s>]/gi,
};
const CLOSE_TAGS: Record<string, RegExp> = { name: /<\/name>/gi, title: /<\/title>/gi, thumbnail: /<\/thumbnail>/gi, documentation: /<\/documentation>/gi };

/**
 * What the first `<tag>` or `<tag …>` holds up to the next `</tag>` (names in any case), by
 * searching forward only: a pattern that tries each `<tag` against the rest of the text is
 * quadratic in it. Only the first opening can match: a later one has no `>` or `</tag>` after it
 * when the first has none.
 */
function elementText(xml: string, tag: keyof ItemCard): string | undefined {
  const open = OPEN_TAGS[tag];
  open.lastIndex = 0;
  const start = open.exec(xml);
  if (!start) return undefined;
  const gt = xml.indexOf('>', start.index);
  if (gt < 0) return undefined;
  const close = CLOSE_TAGS[tag];
  close.lastIndex = gt + 1;
  const end = close.exec(xml);
  return end ? xml.slice(gt + 1, end.index) : undefined;
}

/** The card's name, title, thumbnail and documentation (first element of each name, any depth). */
export function parseItemCard(xml: string): ItemCard {
  const pick = (tag: keyof ItemCard) => {
    const inner = elementText(xml, tag);
    if (inner === undefined) return undefined;
    // An element holding other elements is not a value.
    if (inner.includes('<') && !/^\s*<!\[CDATA\[/.test(inner)) return undefined;
    const v = xmlText(inner);
    return v ? v.slice(0, 256) : undefined;
  };
  const card: ItemCard = {};
  for (const k of ['name', 'title', 'thumbnail', 'documentation'] as const) {
    const v = pick(k);
    if (v) card[k] = v;
  }
  return card;
}
