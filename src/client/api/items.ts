/** Items: search, read, add (every mode), multipart upload, change, share, protect, content status. */
import type { ContentStatus, Item } from '../../shared/contract/items.ts';
import { fetchFile, postForm, request, type FetchedFile, type FormRequestOptions, type ParamValue, type RequestOptions } from './request.ts';
import type { PageEnvelope, PagingParams, SortOrder } from './types.ts';

export type { ContentStatus, Item };

type ReadOptions = Pick<RequestOptions, 'signal'>;
const seg = encodeURIComponent;
const userContent = (username: string) => `content/users/${seg(username)}`;
const ownedItem = (username: string, itemId: string) => `${userContent(username)}/items/${seg(itemId)}`;

export const ITEM_SORT_FIELDS = ['title', 'created', 'modified', 'type', 'owner', 'numviews'] as const;
export type ItemSortField = (typeof ITEM_SORT_FIELDS)[number];

export interface SearchItemsParams extends PagingParams {
  q: string;
  sortField?: ItemSortField;
  sortOrder?: SortOrder;
}

export interface ItemSearchResult extends PageEnvelope {
  query: string;
  results: Item[];
  /**
   * The local portal's `total` is an estimate for searches matching many items (more than 1,000 in a
   * large organization); `nextStart` stays exact. A local extra: other portals leave it out.
   */
  totalEstimated?: boolean;
}

export interface Folder {
  id: string;
  title: string;
  username: string;
  created: number;
}

export interface UserContent extends PageEnvelope {
  username: string;
  currentFolder?: Folder;
  items: Item[];
  folders: Folder[];
}

export interface OwnedItem {
  item: Item;
  sharing: { access: Item['access']; groups: string[] };
  /** Files served at content/items/<id>/info/ (local portal). */
  infoFiles?: string[];
  /** Where the service proxy forwards with the stored credentials (local portal; items added with `service`). */
  proxyUrl?: string;
}

/** The descriptive fields addItem, update and commit take (only those sent change). */
export interface ItemFieldsInput {
  title?: string;
  type?: string;
  typeKeywords?: readonly string[];
  description?: string;
  tags?: readonly string[];
  snippet?: string;
  url?: string;
  accessInformation?: string;
  licenseInfo?: string;
  culture?: string;
  serviceUsername?: string;
  servicePassword?: string;
  /** The service proxy: the item gets a proxy URL on the portal that forwards with the stored credentials. */
  service?: { hitsPerInterval: number; intervalSeconds?: number; referrers?: string[] };
}

export interface AddItemInput extends ItemFieldsInput {
  file?: File;
  text?: string;
  dataUrl?: string;
  thumbnail?: File;
  thumbnailUrl?: string;
  relationshipType?: string;
  originItemId?: string;
  destinationItemId?: string;
}

export interface AddItemResult {
  success: true;
  id: string;
  folder: string | null;
  status?: 'processing';
  statusMessage?: string;
  proxyUrl?: string;
}

export interface ItemJobStatus {
  status: 'partial' | 'processing' | 'completed' | 'failed';
  statusMessage: string;
  itemId: string;
}

export interface RelatedItemsResult extends PageEnvelope {
  /** `relationshipTypes`: what relates each item (local portal; absent elsewhere). */
  relatedItems: (Item & { relationshipTypes?: string[] })[];
}

export type RelationshipDirection = 'forward' | 'reverse';

function withoutUndefined(fields: object): Record<string, ParamValue | File> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

/** `GET search`: one page of the items the caller may see. */
export function searchItems(params: SearchItemsParams, options: ReadOptions = {}): Promise<ItemSearchResult> {
  return request<ItemSearchResult>('search', { ...params }, { ...options, method: 'GET' });
}

export function getItem(itemId: string, options: ReadOptions = {}): Promise<Item> {
  return request<Item>(`content/items/${seg(itemId)}`, {}, { ...options, method: 'GET' });
}

/** The owner's (or an administrator's) view: the item with its sharing and info files. */
export function getOwnedItem(username: string, itemId: string, options: ReadOptions = {}): Promise<OwnedItem> {
  return request<OwnedItem>(ownedItem(username, itemId), {}, { ...options, method: 'GET' });
}

/** A member's root folder (or one folder): items and the folder list. */
export function getUserContent(username: string, folderId?: string, params: PagingParams = {}, options: ReadOptions = {}): Promise<UserContent> {
  return request<UserContent>(folderId ? `${userContent(username)}/${seg(folderId)}` : userContent(username), { ...params }, { ...options, method: 'GET' });
}

export function createFolder(username: string, title: string): Promise<{ success: true; folder: Folder }> {
  return request(`${userContent(username)}/createFolder`, { title }, { method: 'POST' });
}

/** addItem in one request: a file, text, a URL, or a dataUrl (async; poll getItemStatus). */
export function addItem(username: string, folderId: string | undefined, input: AddItemInput, options: FormRequestOptions = {}): Promise<AddItemResult> {
  const path = folderId ? `${userContent(username)}/${seg(folderId)}/addItem` : `${userContent(username)}/addItem`;
  return postForm<AddItemResult>(path, withoutUndefined({ ...input, async: input.dataUrl ? true : undefined }), options);
}

/** Starts a multipart upload: an item in the `partial` state, then addItemPart × n and commit. */
export function startMultipartUpload(username: string, folderId: string | undefined, filename: string): Promise<AddItemResult> {
  const path = folderId ? `${userContent(username)}/${seg(folderId)}/addItem` : `${userContent(username)}/addItem`;
  return request<AddItemResult>(path, { multipart: true, filename }, { method: 'POST' });
}

export function addItemPart(username: string, itemId: string, partNum: number, part: Blob, options: FormRequestOptions = {}): Promise<{ success: true }> {
  return postForm(`${ownedItem(username, itemId)}/addPart`, { partNum, file: { blob: part, filename: `part${partNum}` } }, options);
}

/** The part numbers received so far. */
export function listItemParts(username: string, itemId: string): Promise<{ parts: number[] }> {
  return request(`${ownedItem(username, itemId)}/parts`, {}, { method: 'POST' });
}

export function commitItemUpload(username: string, itemId: string, fields: ItemFieldsInput): Promise<{ success: true; id: string }> {
  return request(`${ownedItem(username, itemId)}/commit`, withoutUndefined(fields) as Record<string, ParamValue>, { method: 'POST' });
}

export function cancelItemUpload(username: string, itemId: string): Promise<{ success: true }> {
  return request(`${ownedItem(username, itemId)}/cancel`, {}, { method: 'POST' });
}

export function getItemStatus(username: string, itemId: string, options: ReadOptions = {}): Promise<ItemJobStatus> {
  return request<ItemJobStatus>(`${ownedItem(username, itemId)}/status`, {}, { ...options, method: 'GET', failedStatusIsData: true });
}

export function updateItem(
  username: string,
  itemId: string,
  /** `text`: new data as text (a web map's or app's JSON), as rest-js's updateItem sends it (facts §3). */
  /** `file`: new data for a file item (its type stays). */
  fields: ItemFieldsInput & { thumbnail?: File; clearEmptyFields?: boolean; text?: string; file?: File },
  options: FormRequestOptions = {},
): Promise<{ success: true }> {
  return postForm(`${ownedItem(username, itemId)}/update`, withoutUndefined(fields), options);
}

/** `folder`: a folder id, or "/" for the root. */
export function moveItem(username: string, itemId: string, folder: string): Promise<{ success: true }> {
  return request(`${ownedItem(username, itemId)}/move`, { folder }, { method: 'POST' });
}

export function deleteItem(username: string, itemId: string): Promise<{ success: true }> {
  return request(`${ownedItem(username, itemId)}/delete`, {}, { method: 'POST' });
}

export function setItemProtected(username: string, itemId: string, protect: boolean): Promise<{ success: true }> {
  return request(`${ownedItem(username, itemId)}/${protect ? 'protect' : 'unprotect'}`, {}, { method: 'POST' });
}

export interface ShareInput {
  everyone?: boolean;
  org?: boolean;
  groups?: readonly string[];
}

export interface ShareResult {
  notSharedWith: string[];
  itemId: string;
}

/** Adds sharing (everyone / org / groups). everyone=false and org=false together make it private. */
export function shareItem(username: string, itemId: string, input: ShareInput): Promise<ShareResult> {
  return request(`${ownedItem(username, itemId)}/share`, { ...input, groups: input.groups?.length ? input.groups : ' ' }, { method: 'POST' });
}

export function unshareItem(username: string, itemId: string, groups: readonly string[]): Promise<{ notUnsharedFrom: string[]; itemId: string }> {
  return request(`${ownedItem(username, itemId)}/unshare`, { groups }, { method: 'POST' });
}

/**
 * `null` removes the status: the documented value `status=null` ("Set Content Status"). `replacedBy`
 * (with `deprecated`) is this portal's local extra naming the replacement; other portals ignore it.
 */
export function setContentStatus(
  itemId: string,
  status: ContentStatus | null,
  options: { replacedBy?: string } = {},
): Promise<{ success: true; itemId: string }> {
  const params = { status: status ?? 'null', ...(options.replacedBy ? { replacedBy: options.replacedBy } : {}) };
  return request(`content/items/${seg(itemId)}/setContentStatus`, params, { method: 'POST' });
}

export interface RelationshipInput {
  originItemId: string;
  destinationItemId: string;
  relationshipType: string;
}

/** The documented parameter is `relationshipTypes` ("Add Relationship"; rest-js sends `relationshipType`). */
const relationshipParams = (input: RelationshipInput) => ({
  originItemId: input.originItemId,
  destinationItemId: input.destinationItemId,
  relationshipTypes: input.relationshipType,
});

export function addRelationship(username: string, input: RelationshipInput): Promise<{ success: true }> {
  return request(`${userContent(username)}/addRelationship`, relationshipParams(input), { method: 'POST' });
}

export function deleteRelationship(username: string, input: RelationshipInput): Promise<{ success: true }> {
  return request(`${userContent(username)}/deleteRelationship`, relationshipParams(input), { method: 'POST' });
}

export function getRelatedItems(
  itemId: string,
  relationshipTypes: readonly string[],
  direction: RelationshipDirection,
  options: ReadOptions = {},
): Promise<RelatedItemsResult> {
  return request<RelatedItemsResult>(`content/items/${seg(itemId)}/relatedItems`, { relationshipTypes, direction, num: 100 }, { ...options, method: 'GET' });
}

/** The address of an item's thumbnail (at one of the served widths); undefined when it has none. */
function thumbnailPath(item: Pick<Item, 'id' | 'thumbnail'>): string | undefined {
  return item.thumbnail ? `content/items/${seg(item.id)}/info/${item.thumbnail.split('/').map(seg).join('/')}` : undefined;
}

/** Whether the item has a thumbnail to fetch. */
export const hasThumbnail = (item: Pick<Item, 'id' | 'thumbnail'>): boolean => thumbnailPath(item) !== undefined;

/** The thumbnail image at one of the served widths (fetched with the token in a header, not the URL). */
export function fetchItemThumbnail(item: Pick<Item, 'id' | 'thumbnail'>, width: 200 | 400 | 800 | 2400 = 200, options: ReadOptions = {}): Promise<FetchedFile> {
  const path = thumbnailPath(item);
  if (!path) return Promise.reject(new Error(`Item ${item.id} has no thumbnail.`));
  return fetchFile(path, { w: width }, options);
}

/** One of the item's info files (esriinfo, the thumbnail). */
export function fetchItemInfoFile(itemId: string, path: string, options: ReadOptions = {}): Promise<FetchedFile> {
  return fetchFile(`content/items/${seg(itemId)}/info/${path.split('/').map(seg).join('/')}`, {}, options);
}

/** The item's data (its file, or its text as JSON). */
export function fetchItemData(itemId: string, options: ReadOptions = {}): Promise<FetchedFile> {
  return fetchFile(`content/items/${seg(itemId)}/data`, {}, options);
}
