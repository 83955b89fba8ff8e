/**
 * The basemap gallery of an organization, as the Maps SDK's `Portal.fetchBasemaps()` finds it: it
 * searches `community/groups?q=<query>` with the query portals/self names (the vector one when
 * `useVectorBasemaps`), takes the first group found and lists that group's Web Maps.
 *
 * A query the SDK does not get is not "no gallery" to it: it searches without `q`, which matches
 * every group, and shows the first unrelated group's Web Maps as basemaps. So an organization that
 * has not chosen a gallery group answers a query no group can match: group ids are 32 lowercase
 * hexadecimal characters (store/ids.ts hexId), and the group search compares `id:` exactly
 * (groups/repo.ts). A title would not do: any member may create a group with that title.
 */
import type { OrgRow } from './repo.ts';

export const NO_GALLERY_GROUP_QUERY = 'id:basemapGalleryNotConfigured';

export interface BasemapGallery {
  basemapGalleryGroupQuery: string;
  vectorBasemapGalleryGroupQuery: string;
  useVectorBasemaps: boolean;
  devBasemapGalleryGroupQuery: string;
}

const storedQuery = (value: unknown) => (typeof value === 'string' && value.trim() ? value : undefined);

/** The organization's gallery settings as stored (absent, empty or malformed: not set). */
export function storedBasemapGallery(org: Pick<OrgRow, 'settings'>): {
  basemapGalleryGroupQuery?: string;
  vectorBasemapGalleryGroupQuery?: string;
  useVectorBasemaps: boolean;
} {
  return {
    basemapGalleryGroupQuery: storedQuery(org.settings?.basemapGalleryGroupQuery),
    vectorBasemapGalleryGroupQuery: storedQuery(org.settings?.vectorBasemapGalleryGroupQuery),
    useVectorBasemaps: org.settings?.useVectorBasemaps === true,
  };
}

/** What portals/self answers: every query the SDK may read, each set or matching no group. */
export function basemapGalleryOf(org: Pick<OrgRow, 'settings'>): BasemapGallery {
  const stored = storedBasemapGallery(org);
  const basemapGalleryGroupQuery = stored.basemapGalleryGroupQuery ?? NO_GALLERY_GROUP_QUERY;
  const vectorBasemapGalleryGroupQuery = stored.vectorBasemapGalleryGroupQuery ?? NO_GALLERY_GROUP_QUERY;
  return {
    basemapGalleryGroupQuery,
    vectorBasemapGalleryGroupQuery,
    useVectorBasemaps: stored.useVectorBasemaps,
    // The SDK reads this one instead when the app carries a basemap-styles API key (apiKeyUtils
    // hasBasemapStylesApiKey); this portal has no separate developer gallery, so it is the one in use.
    devBasemapGalleryGroupQuery: stored.useVectorBasemaps ? vectorBasemapGalleryGroupQuery : basemapGalleryGroupQuery,
  };
}
