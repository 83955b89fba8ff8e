/** Content: the list's address state, the search it becomes, and the add / edit item forms. */
import { z } from 'zod';
import { dataStoreProblems } from '../../../shared/dataStore.ts';
import { jsonSyntaxProblem } from '../../../shared/jsonText.ts';
import { LIMITS } from '../../../shared/limits.ts';
import { findRelationshipType } from '../../../shared/relationships.ts';
import { ITEM_SORT_FIELDS } from '../../api/index.ts';
import { tooLong, tooMany } from '../../lib/forms.ts';
import { httpUrlSchema } from '../../lib/urls.ts';

/** Item types offered in pickers; any other type can be typed. */
export const COMMON_ITEM_TYPES = [
  'Web Map',
  'Web Scene',
  'Feature Service',
  'Map Service',
  'Image Service',
  'Vector Tile Service',
  'Scene Service',
  'Web Mapping Application',
  'Dashboard',
  'StoryMap',
  'CSV',
  'Shapefile',
  'File Geodatabase',
  'GeoJson',
  'GeoPackage',
  'Microsoft Excel',
  'PDF',
  'Image',
  'Service Definition',
  'Data Store',
  'Code Attachment',
  'Document Link',
] as const;

export const CONTENT_STATUS_FILTERS = ['', 'authoritative', 'org_authoritative', 'public_authoritative', 'deprecated'] as const;
export const ACCESS_FILTERS = ['', 'private', 'shared', 'org', 'public'] as const;

/** The content list's state lives in the address. */
export const contentListSchema = z.object({
  start: z.coerce.number().int().min(1).catch(1),
  num: z.coerce.number().int().min(1).max(100).catch(25),
  sortField: z.enum(['', ...ITEM_SORT_FIELDS]).catch('modified'),
  sortOrder: z.enum(['asc', 'desc']).catch('desc'),
  q: z.string().trim().max(256).catch(''),
  /** `mine`: the member's own items; `org`: the organization's (administrators). */
  scope: z.enum(['mine', 'org']).catch('mine'),
  owner: z.string().trim().max(128).catch(''),
  type: z.string().trim().max(128).catch(''),
  folder: z
    .string()
    .regex(/^[a-f0-9]{32}$/i)
    .or(z.literal(''))
    .catch(''),
  status: z.enum(CONTENT_STATUS_FILTERS).catch(''),
  access: z.enum(ACCESS_FILTERS).catch(''),
  group: z
    .string()
    .regex(/^[a-zA-Z0-9]{1,64}$/)
    .or(z.literal(''))
    .catch(''),
});
export type ContentListState = z.output<typeof contentListSchema>;

const DEFAULTS: ContentListState = {
  start: 1,
  num: 25,
  sortField: 'modified',
  sortOrder: 'desc',
  q: '',
  scope: 'mine',
  owner: '',
  type: '',
  folder: '',
  status: '',
  access: '',
  group: '',
};

export function parseContentList(params: URLSearchParams): ContentListState {
  return contentListSchema.parse(Object.fromEntries(Object.keys(DEFAULTS).map((k) => [k, params.get(k) ?? undefined])));
}

export function contentListToParams(state: ContentListState): URLSearchParams {
  const out = new URLSearchParams();
  for (const key of Object.keys(DEFAULTS) as (keyof ContentListState)[]) {
    if (state[key] !== DEFAULTS[key]) out.set(key, String(state[key]));
  }
  return out;
}

/** A value as one search term: quoted, with the characters that would end the phrase removed. */
const term = (value: string) => `"${value.replace(/["\\()]/g, ' ').trim()}"`;

/** The `q` of search for the list's filters. */
export function contentSearchQuery(state: ContentListState, user: { username: string; orgId?: string }): string {
  const parts: string[] = [];
  if (state.scope === 'mine') parts.push(`owner:${term(user.username)}`);
  else {
    if (user.orgId) parts.push(`orgid:${user.orgId}`);
    if (state.owner) parts.push(`owner:${term(state.owner)}`);
  }
  if (state.scope === 'mine' && state.folder) parts.push(`ownerfolder:${state.folder}`);
  if (state.type) parts.push(`type:${term(state.type)}`);
  if (state.status === 'authoritative') parts.push('(contentstatus:org_authoritative OR contentstatus:public_authoritative)');
  else if (state.status) parts.push(`contentstatus:${state.status}`);
  if (state.access) parts.push(`access:${state.access}`);
  if (state.group) parts.push(`group:${state.group}`);
  const free = state.q.replace(/[()"]/g, ' ').trim();
  if (free) parts.push(`(${free})`);
  return parts.length ? parts.join(' AND ') : '*';
}

/** Field-named messages (issue 25, item 11), with the limits the service enforces (shared/limits). */
const tags = z
  .array(z.string().trim().min(1).max(LIMITS.tagChars, tooLong('each tag', LIMITS.tagChars)))
  .max(LIMITS.tagsPerItem, tooMany('tags', LIMITS.tagsPerItem));
const title = z.string().trim().min(1, 'Enter a title').max(LIMITS.itemTitleChars, tooLong('the title', LIMITS.itemTitleChars));
const itemType = z.string().trim().min(1, 'Enter or choose a type').max(LIMITS.itemTypeChars, tooLong('the type', LIMITS.itemTypeChars));
const snippet = z.string().max(LIMITS.snippetChars, tooLong('the summary', LIMITS.snippetChars));
const itemId = z
  .string()
  .trim()
  .regex(new RegExp(`^[A-Za-z0-9]{${LIMITS.itemIdLength}}$`), `Choose the related item, or enter its ID (${LIMITS.itemIdLength} letters and digits)`);

export const ADD_MODES = ['file', 'url', 'text', 'dataUrl'] as const;
export type AddMode = (typeof ADD_MODES)[number];

/** Add item: one form for the four modes; the fields of the other modes are ignored. */
export const addItemSchema = z
  .object({
    mode: z.enum(ADD_MODES),
    title,
    type: itemType,
    tags,
    snippet,
    folderId: z.string(),
    file: z.custom<File | null>((v) => v === null || (typeof File !== 'undefined' && v instanceof File)),
    url: z.string(),
    text: z.string(),
    dataUrl: z.string(),
    thumbnail: z.custom<File | null>((v) => v === null || (typeof File !== 'undefined' && v instanceof File)),
    relate: z.enum(['none', 'origin', 'destination']),
    relationshipType: z.string(),
    relatedItemId: z.string(),
    useProxy: z.boolean(),
    hitsPerInterval: z.number().int().min(1, 'Allow at least 1 request per interval').max(1_000_000, 'Allow at most 1,000,000 requests per interval'),
    intervalSeconds: z.number().int().min(1, 'The interval must be at least 1 second').max(86_400, 'The interval can be at most 86,400 seconds (a day)'),
    referrers: z.array(z.string().trim().min(1).max(2048)).max(100),
    serviceUsername: z.string().max(256),
    servicePassword: z.string().max(1024),
  })
  .superRefine((v, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (v.mode === 'file' && !v.file) issue('file', 'Choose a file');
    if (v.mode === 'url') {
      const r = httpUrlSchema.safeParse(v.url);
      if (!r.success) issue('url', r.error.issues[0].message);
    }
    if (v.mode === 'dataUrl') {
      const r = httpUrlSchema.safeParse(v.dataUrl);
      if (!r.success) issue('dataUrl', r.error.issues[0].message);
    }
    if (v.mode === 'text') {
      if (new TextEncoder().encode(v.text).length > LIMITS.fieldBytes) issue('text', 'The text is too large; add it as a file instead');
      else if (/json|web map|web scene|data store/i.test(v.type) || v.text.trim().startsWith('{') || v.text.trim().startsWith('[')) {
        const syntax = jsonSyntaxProblem(v.text);
        if (syntax) issue('text', `The text is not valid JSON (${syntax})`);
        else if (/^data store$/i.test(v.type.trim())) {
          // The portal's own check (src/shared/dataStore.ts), before anything is sent.
          const [problem] = dataStoreProblems(JSON.parse(v.text));
          if (problem) issue('text', `Not a data store the portal accepts: ${problem}. “Start from” fills in a shape to edit.`);
        }
      }
    }
    if (v.relate !== 'none') {
      if (!findRelationshipType(v.relationshipType)) issue('relationshipType', 'Choose a relationship type');
      const r = itemId.safeParse(v.relatedItemId);
      if (!r.success) issue('relatedItemId', r.error.issues[0].message);
    }
    if (v.useProxy && v.mode !== 'url') issue('useProxy', 'A service proxy needs a URL item');
  });
export type AddItemFormValues = z.input<typeof addItemSchema>;

export const EMPTY_ADD_ITEM: AddItemFormValues = {
  mode: 'file',
  title: '',
  type: '',
  tags: [],
  snippet: '',
  folderId: '',
  file: null,
  url: '',
  text: '',
  dataUrl: '',
  thumbnail: null,
  relate: 'none',
  relationshipType: '',
  relatedItemId: '',
  useProxy: false,
  hitsPerInterval: 60,
  intervalSeconds: LIMITS.serviceProxyDefaultIntervalSeconds,
  referrers: [],
  serviceUsername: '',
  servicePassword: '',
};

/** Edit an item's details. */
export const editItemSchema = z.object({
  title,
  snippet,
  description: z
    .string()
    .refine((s) => new TextEncoder().encode(s).length < LIMITS.descriptionBytes, tooLong('the description', LIMITS.descriptionBytes - 1, 'bytes')),
  tags,
  url: z.string().max(LIMITS.urlChars, tooLong('the URL', LIMITS.urlChars)),
  accessInformation: z.string().max(LIMITS.descriptionBytes, tooLong('the credits', LIMITS.descriptionBytes)),
  licenseInfo: z.string().max(LIMITS.descriptionBytes, tooLong('the terms of use', LIMITS.descriptionBytes)),
});
export type EditItemValues = z.output<typeof editItemSchema>;
export const EDIT_ITEM_FIELDS = ['title', 'snippet', 'description', 'tags', 'url', 'accessInformation', 'licenseInfo'] as const;

/** A guess at the item type from a file name, for the Add item form. */
export function typeForFileName(name: string): string {
  const ext = name.split('.').pop()?.toLowerCase() ?? '';
  const byExt: Record<string, string> = {
    csv: 'CSV',
    zip: 'Shapefile',
    json: 'GeoJson',
    geojson: 'GeoJson',
    gpkg: 'GeoPackage',
    xlsx: 'Microsoft Excel',
    xls: 'Microsoft Excel',
    pdf: 'PDF',
    png: 'Image',
    jpg: 'Image',
    jpeg: 'Image',
    sd: 'Service Definition',
    docx: 'Microsoft Word',
    kml: 'KML',
  };
  return byExt[ext] ?? '';
}
