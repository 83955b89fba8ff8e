/**
 * A title to propose for a URL item, read from the service itself: an ArcGIS Server resource
 * answers `?f=json` with its description — `documentInfo.Title` (map and feature services),
 * `name` (a layer, a scene or vector tile service), `serviceDescription` when it is short enough to
 * be a title — and otherwise the service is named by its path (…/services/Folder/Parks_and_Trails/
 * FeatureServer/0 → "Parks and Trails"). Only a proposal: the Add item form fills an empty Title.
 */
import { useEffect, useRef } from 'react';

/** Longer descriptions read as sentences, not titles. */
const MAX_TITLE_FROM_DESCRIPTION = 80;
/** A service that does not answer soon is named by its path. */
const ANSWER_WAIT_MS = 4000;
const SETTLE_MS = 400;

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/** The title a service's JSON gives itself, or ''. */
function titleFromServiceJson(json: unknown): string {
  if (!json || typeof json !== 'object') return '';
  const o = json as Record<string, unknown>;
  const info = o.documentInfo && typeof o.documentInfo === 'object' ? (o.documentInfo as Record<string, unknown>) : {};
  const description = text(o.serviceDescription);
  const shortDescription = description && description.length <= MAX_TITLE_FROM_DESCRIPTION && !/\n/.test(description) ? description : '';
  return text(info.Title) || text(o.name) || shortDescription;
}

/** The service's name from its path (the part before …Server, underscores as spaces), else the last path segment. */
function titleFromUrlPath(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return '';
  }
  const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const server = parts.findLastIndex((p) => /server$/i.test(p));
  const name = server > 0 ? parts[server - 1] : (parts.at(-1) ?? url.hostname);
  return name
    .replace(/\.[a-z0-9]{1,5}$/i, '')
    .replace(/[_+]+/g, ' ')
    .trim();
}

async function proposeTitle(url: string, signal: AbortSignal): Promise<string> {
  try {
    const target = new URL(url);
    target.searchParams.set('f', 'json');
    // No credentials: a public description is all a title needs, and the portal's token stays with the portal.
    const res = await Promise.race([
      fetch(target, { signal, credentials: 'omit' }),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer in time')), ANSWER_WAIT_MS)),
    ]);
    if (res.ok) {
      const fromJson = titleFromServiceJson(await res.json());
      if (fromJson) return fromJson;
    }
  } catch {
    // Unreachable, not JSON, refused by CORS, or too slow: the path still names the service.
  }
  return signal.aborted ? '' : titleFromUrlPath(url);
}

/** Once `url` has settled, reads the title to propose and hands it to `apply` (the latest one given). */
export function useProposedTitle(url: string, enabled: boolean, apply: (title: string) => void): void {
  const latest = useRef(apply);
  useEffect(() => {
    latest.current = apply;
  });
  useEffect(() => {
    if (!enabled || !/^https?:\/\/./i.test(url.trim())) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      void proposeTitle(url.trim(), controller.signal).then((title) => {
        if (!controller.signal.aborted && title) latest.current(title);
      });
    }, SETTLE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [url, enabled]);
}
