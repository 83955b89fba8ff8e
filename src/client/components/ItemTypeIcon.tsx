/**
 * One icon per item type — the only place that says which: the content list, related items, item
 * pickers and the item page all draw it from here, so a type looks the same everywhere. A type not
 * named falls back on its family (…Service, …Application) and then on a plain file.
 */
import { ThemeIcon } from '@mantine/core';
import type { ReactElement, SVGProps } from 'react';
import { IconAppWindow, IconCode, IconDatabase, IconFiles, IconGlobe, IconLayers, IconLink, IconMap, IconPhoto, IconTable, IconTiles } from './icons.tsx';

type TypeIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => ReactElement;

const BY_TYPE: Record<string, TypeIcon> = {
  'web map': IconMap,
  'web scene': IconGlobe,
  'scene service': IconGlobe,
  'feature service': IconLayers,
  'feature collection': IconLayers,
  'map service': IconTiles,
  'vector tile service': IconTiles,
  wms: IconTiles,
  wmts: IconTiles,
  'image service': IconPhoto,
  image: IconPhoto,
  'web mapping application': IconAppWindow,
  dashboard: IconAppWindow,
  storymap: IconAppWindow,
  'web experience': IconAppWindow,
  csv: IconTable,
  'microsoft excel': IconTable,
  'file geodatabase': IconDatabase,
  geopackage: IconDatabase,
  'data store': IconDatabase,
  'document link': IconLink,
  geojson: IconCode,
  'code attachment': IconCode,
};

export function iconForItemType(type: string): TypeIcon {
  const t = type.trim().toLowerCase();
  if (BY_TYPE[t]) return BY_TYPE[t];
  if (t.endsWith('service')) return IconTiles;
  if (t.endsWith('application') || t.endsWith('app')) return IconAppWindow;
  return IconFiles;
}

/** The type's icon, decorative: the type's name is always written beside it. */
export function ItemTypeIcon({ type, size = 16 }: { type: string; size?: number }) {
  // Called, not rendered as <Glyph />: the icons are plain drawings without state, and a component
  // chosen during render would be a new component type to React on every type change.
  return iconForItemType(type)({ size });
}

/** The type's icon in a tinted square, where an item has no thumbnail. */
export function ItemTypeBadgeIcon({ type, size = 40 }: { type: string; size?: number }) {
  return (
    <ThemeIcon variant="light" color="gray" size={size} radius="sm" aria-hidden>
      <ItemTypeIcon type={type} size={Math.round(size / 2)} />
    </ThemeIcon>
  );
}
