/** An item's thumbnail; its sharing and content status badges (components/ItemBadges.tsx). */
import { Image } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { currentConnection, fetchItemThumbnail, hasThumbnail, type Item } from '../../api/index.ts';
import { ItemTypeBadgeIcon } from '../../components/ItemTypeIcon.tsx';
import { itemKeys } from '../../api/queries/items.ts';

// The badges moved to components (the dependency views show them too); re-exported for the content pages.
export { CONTENT_STATUS_LABELS, ContentStatusBadge, ItemAccessBadge } from '../../components/ItemBadges.tsx';

/** Object URLs of thumbnails no longer shown, about to be released. */
const revoking = new Map<string, ReturnType<typeof setTimeout>>();

type ThumbnailOf = Pick<Item, 'id' | 'thumbnail' | 'type'> & { modified?: number };

/**
 * The thumbnail fetched with the token in a header (a private item's image needs the token, which
 * must not ride in an <img> URL) and shown through an object URL, released when no longer shown.
 */
function useThumbnailSrc(item: ThumbnailOf, width: 200 | 400): string | undefined {
  const { id, thumbnail, modified } = item;
  const image = useQuery({
    queryKey: itemKeys.thumbnail(currentConnection().portalUrl, id, thumbnail, modified, width),
    queryFn: ({ signal }) => fetchItemThumbnail({ id, thumbnail }, width, { signal }),
    enabled: hasThumbnail({ id, thumbnail }),
    staleTime: Infinity,
    retry: false,
  });
  const blob = image.data?.blob;
  const src = useMemo(() => (blob ? URL.createObjectURL(blob) : undefined), [blob]);
  useEffect(() => {
    if (!src) return;
    // Released a moment after the image stops being shown, unless shown again at once (React's
    // development mode unmounts and remounts every effect once).
    clearTimeout(revoking.get(src));
    return () => {
      revoking.set(
        src,
        setTimeout(() => {
          revoking.delete(src);
          URL.revokeObjectURL(src);
        }, 1000),
      );
    };
  }, [src]);
  return src;
}

export function ItemThumbnail({ item, size = 40 }: { item: ThumbnailOf; size?: number }) {
  const src = useThumbnailSrc(item, size > 200 ? 400 : 200);
  // Without a thumbnail the item's type icon stands in, so the list still tells types apart.
  if (!src) return <ItemTypeBadgeIcon type={item.type} size={size} />;
  return <Image src={src} alt="" w={size} h={size * 0.66} fit="cover" radius="sm" />;
}
