/** Items: descriptive fields (spec §2 Item, §4.1; facts §3.1, §4) and the item record. */
import { z } from 'zod';
import { own, ownerNeeding, ownerOr, visible, type Authority, type OwnerAuthority } from '../authority.ts';
import { LIMITS } from '../limits.ts';
import { commaList, jsonObject } from './wire.ts';

const utf8Bytes = (s: string) => new TextEncoder().encode(s).length;

/** `xmin,ymin,xmax,ymax` (what rest-js sends), JSON `[[xmin,ymin],[xmax,ymax]]`, or empty for none. */
export const extentParam = z.string().transform((v, ctx) => {
  const text = v.trim();
  if (!text) return [] as number[][];
  let nums: number[];
  if (text.startsWith('[')) {
    try {
      nums = (JSON.parse(text) as unknown[]).flat(2).map(Number);
    } catch {
      nums = [];
    }
  } else nums = text.split(',').map((n) => Number(n.trim()));
  if (nums.length !== 4 || nums.some((n) => !Number.isFinite(n))) {
    ctx.addIssue({ code: 'custom', message: 'must be xmin,ymin,xmax,ymax or [[xmin,ymin],[xmax,ymax]]' });
    return z.NEVER;
  }
  const [xmin, ymin, xmax, ymax] = nums;
  if (xmin > xmax || ymin > ymax) {
    ctx.addIssue({ code: 'custom', message: 'must have xmin ≤ xmax and ymin ≤ ymax' });
    return z.NEVER;
  }
  return [
    [xmin, ymin],
    [xmax, ymax],
  ];
});

export const itemIdParam = z.string().regex(new RegExp(`^[A-Za-z0-9]{${LIMITS.itemIdLength}}$`), `must be ${LIMITS.itemIdLength} letters and digits`);

/** The service-proxy object (spec §4.1). */
export const serviceProxy = z.object({
  hitsPerInterval: z.number().int().min(1).max(1_000_000),
  intervalSeconds: z.number().int().min(1).max(86_400).default(LIMITS.serviceProxyDefaultIntervalSeconds),
  referrers: z.array(z.string().min(1).max(2048)).max(100).default([]),
});

/** Descriptive fields accepted by addItem, update and commit. Every one optional here. */
export const itemFields = z
  .object({
    title: z.string().trim().min(1, 'must not be empty').max(LIMITS.itemTitleChars, `must be at most ${LIMITS.itemTitleChars} characters`),
    type: z.string().trim().min(1, 'must not be empty').max(LIMITS.itemTypeChars),
    typeKeywords: commaList.pipe(z.array(z.string().max(256)).max(128, 'may hold at most 128 keywords')),
    description: z.string().refine((s) => utf8Bytes(s) < LIMITS.descriptionBytes, 'must be less than 64 KB'),
    tags: commaList.pipe(z.array(z.string().max(LIMITS.tagChars)).max(LIMITS.tagsPerItem, `may hold at most ${LIMITS.tagsPerItem} tags`)),
    snippet: z.string().max(LIMITS.snippetChars, `must be at most ${LIMITS.snippetChars} characters`),
    extent: extentParam,
    spatialReference: z.string().max(1024),
    accessInformation: z.string().max(LIMITS.descriptionBytes),
    licenseInfo: z.string().max(LIMITS.descriptionBytes),
    culture: z.string().regex(/^([a-zA-Z]{2,3}-[a-zA-Z]{2,3}|[a-zA-Z]{2,3})?$/, 'must be a language code and a country code separated by a dash, e.g. en-us'),
    properties: jsonObject(z.record(z.string(), z.unknown())).refine((o) => JSON.stringify(o).length <= LIMITS.descriptionBytes, 'is too large'),
    url: z.string().max(LIMITS.urlChars),
    categories: commaList.pipe(z.array(z.string().max(256)).max(100)),
    appCategories: commaList.pipe(z.array(z.string().max(256)).max(100)),
    industries: commaList.pipe(z.array(z.string().max(256)).max(100)),
    languages: commaList.pipe(z.array(z.string().max(64)).max(100)),
    largeThumbnail: z.string().max(2048),
    banner: z.string().max(2048),
    screenshots: commaList.pipe(z.array(z.string().max(2048)).max(20)),
    listingProperties: jsonObject(z.record(z.string(), z.unknown())),
    documentation: z.string().max(2048),
    serviceUsername: z.string().max(256),
    servicePassword: z.string().max(1024),
    service: jsonObject(serviceProxy),
  })
  .partial();
export type ItemFields = z.output<typeof itemFields>;

export const ITEM_ACCESS = ['private', 'shared', 'org', 'public'] as const;
export const CONTENT_STATUSES = ['org_authoritative', 'public_authoritative', 'deprecated'] as const;
export type ContentStatus = (typeof CONTENT_STATUSES)[number];

/** The item record (facts §4) as the service returns it. Credentials are never in it. */
export interface Item {
  id: string;
  owner: string;
  orgId: string;
  created: number;
  modified: number;
  guid: null;
  name: string | null;
  title: string;
  type: string;
  typeKeywords: string[];
  description: string | null;
  tags: string[];
  snippet: string | null;
  thumbnail: string | null;
  documentation: string | null;
  extent: number[][];
  categories: string[];
  spatialReference: string | null;
  accessInformation: string | null;
  licenseInfo: string | null;
  culture: string | null;
  properties: Record<string, unknown> | null;
  url: string | null;
  proxyFilter: null;
  access: (typeof ITEM_ACCESS)[number];
  size: number;
  appCategories: string[];
  industries: string[];
  languages: string[];
  largeThumbnail: string | null;
  banner: string | null;
  screenshots: string[];
  listed: boolean;
  numComments: number;
  numRatings: number;
  avgRating: number;
  numViews: number;
  protected: boolean;
  contentStatus: ContentStatus | null;
  /** Local extra (setContentStatus replacedBy): the item that replaces this deprecated one. Absent on other portals. */
  replacedBy?: string;
  ownerFolder: string | null;
  /** Upload / async job state. */
  itemStatus?: 'partial' | 'processing' | 'failed';
}

/**
 * Who may call each item operation (content/users/<u>/…, content/items/<id>/…, search): the owner
 * adds and uploads their own items; an administrator of the item's organization reads, changes,
 * deletes or shares another member's with the privilege named; anyone reads what its sharing shows
 * them. The service declares its routes with these entries; the console asks the same (lib/can.ts).
 */
/** What a member needs to add, change or upload their own content (the owner's side of ITEM_OPERATIONS' ownerOr). */
export const CONTENT_OWNER_PRIVILEGE = 'portal:user:createItem';
/** An operation on the owner's content: the owner needs CONTENT_OWNER_PRIVILEGE for it. */
export const content = (authority: OwnerAuthority) => ownerNeeding(CONTENT_OWNER_PRIVILEGE, authority);

export const ITEM_OPERATIONS = {
  addItem: content(own()),
  addPart: content(own()),
  commitItem: content(own()),
  cancelItem: content(own()),
  itemParts: content(own()),
  itemStatus: ownerOr('portal:admin:updateItems'),
  updateItem: content(ownerOr('portal:admin:updateItems')),
  moveItem: content(ownerOr('portal:admin:updateItems')),
  protectItem: content(ownerOr('portal:admin:updateItems')),
  updateThumbnail: content(ownerOr('portal:admin:updateItems')),
  setContentStatus: ownerOr('portal:admin:updateItems'),
  deleteItem: content(ownerOr('portal:admin:deleteItems')),
  /** Sharing another member's item more widely: the administrative privilege of the level (the matrix tries the organization). */
  shareItem: ownerOr('portal:admin:shareToOrg'),
  /** Taking another member's item out of a group: portal:admin:shareToGroup (or managing that group). */
  unshareItem: ownerOr('portal:admin:shareToGroup'),
  item: visible('portal:admin:viewItems'),
  itemData: visible('portal:admin:viewItems'),
  itemInfoFile: visible('portal:admin:viewItems'),
  itemGroups: visible('portal:admin:viewItems'),
  searchItems: visible('portal:admin:viewItems'),
  searchGroupContent: visible('portal:admin:viewGroups', 'portal:admin:viewItems'),
  userContent: ownerOr('portal:admin:viewItems'),
  userItem: ownerOr('portal:admin:viewItems'),
} as const satisfies Record<string, Authority>;
