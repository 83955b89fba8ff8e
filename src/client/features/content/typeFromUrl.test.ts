import { describe, expect, it } from 'vitest';
import { typeFromUrl } from './typeFromUrl.ts';

describe('typeFromUrl', () => {
  it.each([
    ['https://services.example.com/arcgis/rest/services/Parks/FeatureServer', 'Feature Service'],
    ['https://services.example.com/arcgis/rest/services/Parks/FeatureServer/0', 'Feature Service'],
    ['https://services.example.com/arcgis/rest/services/Parks/featureserver/', 'Feature Service'],
    ['https://host/arcgis/rest/services/Basemap/MapServer?f=pjson', 'Map Service'],
    ['https://host/arcgis/rest/services/Basemap/MapServer/3', 'Map Service'],
    ['https://host/arcgis/rest/services/Elevation/ImageServer', 'Image Service'],
    ['https://tiles.example.com/arcgis/rest/services/Buildings/SceneServer/layers/0', 'Scene Service'],
    ['https://host/arcgis/rest/services/World_Basemap/VectorTileServer', 'Vector Tile Service'],
    ['https://host/arcgis/rest/services/Route/GPServer', 'Geoprocessing Service'],
    ['https://host/arcgis/services/Basemap/MapServer/WMSServer?request=GetCapabilities', 'WMS'],
    ['https://maps.example.org/ows?SERVICE=wms&request=GetCapabilities', 'WMS'],
    ['https://org.maps.arcgis.com/apps/instant/basic/index.html?appid=0123456789abcdef0123456789abcdef', 'Web Mapping Application'],
    ['https://org.maps.arcgis.com/apps/mapviewer/index.html?webmap=0123456789abcdef0123456789abcdef', 'Web Mapping Application'],
    ['https://apps.example.com/viewer/?id=0123456789abcdef0123456789abcdef', 'Web Mapping Application'],
    ['https://data.example.com/parks.kmz', 'KML'],
  ])('%s → %s', (url, type) => {
    expect(typeFromUrl(url)).toBe(type);
  });

  it.each([
    ['not a url'],
    [''],
    ['ftp://host/arcgis/rest/services/Parks/FeatureServer'],
    ['https://www.example.com/about'],
    // A portal's item page names an item, but is not an app.
    ['https://org.maps.arcgis.com/home/item.html?id=0123456789abcdef0123456789abcdef'],
    // An empty id says nothing; a word that merely contains "Server" is not a service.
    ['https://apps.example.com/viewer/?id='],
    ['https://host/arcgis/rest/services/MyFeatureServerNotes'],
  ])('%s → no guess', (url) => {
    expect(typeFromUrl(url)).toBeNull();
  });
});
