/**
 * The related-items lists say which end uses which, by type and in both directions, as the ArcGIS
 * "Relationship types" page has it: a Map2AppConfig map (origin) is used by its app (destination),
 * while a Map2Service map (origin) uses its service (destination). No list says "depends on".
 */
import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELATIONSHIP_TYPES, relationshipVerb } from '../../../shared/relationships.ts';
import { addItem, addRelationship } from '../../api/index.ts';
import { renderApp, signInAs } from '../../test/render.tsx';
import { startClientService, type ClientTestService } from '../../test/service.ts';

let svc: ClientTestService;
let map: string;
let app: string;
let service: string;

beforeAll(async () => {
  svc = await startClientService();
  await signInAs(svc, 'admin');
  map = (await addItem('admin', '/', { title: 'Wording map', type: 'Web Map', text: '{}' })).id;
  app = (await addItem('admin', '/', { title: 'Wording app', type: 'Web Mapping Application', url: 'https://example.com/app' })).id;
  service = (
    await addItem('admin', '/', { title: 'Wording service', type: 'Feature Service', url: 'https://example.com/arcgis/rest/services/W/FeatureServer' })
  ).id;
  await addRelationship('admin', { originItemId: map, destinationItemId: app, relationshipType: 'Map2AppConfig' });
  await addRelationship('admin', { originItemId: map, destinationItemId: service, relationshipType: 'Map2Service' });
}, 60_000);
afterAll(() => svc?.close());

const rowOf = (table: HTMLElement, title: string) => within(table).getByRole('link', { name: title }).closest('tr')!;

describe('relationship wording', () => {
  it('every type reads both ways, and Map2AppConfig reads "the app uses the map"', () => {
    for (const r of RELATIONSHIP_TYPES) {
      expect(r.originVerb, r.name).toMatch(/\S/);
      expect(r.destinationVerb, r.name).toMatch(/\S/);
      expect(r.originVerb, r.name).not.toBe(r.destinationVerb);
    }
    expect(relationshipVerb('Map2AppConfig', 'origin')).toBe('is used by');
    expect(relationshipVerb('Map2AppConfig', 'destination')).toBe('uses');
    expect(relationshipVerb('map2service', 'origin')).toBe('uses');
    expect(relationshipVerb('Service2Data', 'origin')).toBe('was published from');
    expect(relationshipVerb('Service2Service', 'destination')).toBe('is derived from');
  });

  it("the map's forward list: used by its app, using its service", async () => {
    await signInAs(svc, 'admin');
    const { user } = renderApp(`/content/items/${map}`);
    expect(await screen.findByRole('heading', { name: 'Wording map', level: 1 }, { timeout: 10_000 })).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Related items' }));
    expect(screen.queryByText(/depends on|depend on/i)).toBeNull();
    expect(screen.getByText('Related from this item (it is the origin)')).toBeInTheDocument();
    const forward = await screen.findByRole('table', { name: 'Related items: this item is the origin' });
    expect(await within(forward).findByRole('link', { name: 'Wording app' })).toBeInTheDocument();
    expect(rowOf(forward, 'Wording app')).toHaveTextContent('This item is used by it');
    expect(rowOf(forward, 'Wording app')).toHaveTextContent('Map2AppConfig');
    expect(rowOf(forward, 'Wording service')).toHaveTextContent('This item uses it');
  });

  it("the app's backward list: it uses the map", async () => {
    await signInAs(svc, 'admin');
    const { user } = renderApp(`/content/items/${app}`);
    expect(await screen.findByRole('heading', { name: 'Wording app', level: 1 }, { timeout: 10_000 })).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Related items' }));
    expect(screen.getByText('Related to this item (it is the destination)')).toBeInTheDocument();
    const backward = await screen.findByRole('table', { name: 'Related items: this item is the destination' });
    expect(await within(backward).findByRole('link', { name: 'Wording map' })).toBeInTheDocument();
    expect(rowOf(backward, 'Wording map')).toHaveTextContent('This item uses it');
    expect(screen.queryByText(/depends on|depend on/i)).toBeNull();
  });

  it("the service's backward list: the map uses it", async () => {
    await signInAs(svc, 'admin');
    const { user } = renderApp(`/content/items/${service}`);
    expect(await screen.findByRole('heading', { name: 'Wording service', level: 1 }, { timeout: 10_000 })).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Related items' }));
    const backward = await screen.findByRole('table', { name: 'Related items: this item is the destination' });
    expect(await within(backward).findByRole('link', { name: 'Wording map' })).toBeInTheDocument();
    expect(rowOf(backward, 'Wording map')).toHaveTextContent('This item is used by it');
  });
});
