import { describe, expect, it } from 'vitest';
import { capabilitiesOf, localOnly } from './capabilities.ts';

describe('portal capabilities', () => {
  it('the local portal with its extras (the marker) offers local-only actions as the privileges allow', () => {
    const caps = capabilitiesOf({ name: 'Demo Organization', portalName: 'Local Portal', localExtras: true });
    expect(caps).toMatchObject({ known: true, localExtras: true, portalName: 'Demo Organization' });
    expect(localOnly(caps, 'a test delivery')).toEqual({ allowed: true });
    const missing = { allowed: false as const, missing: 'portal:admin:manageWebhooks', reason: 'Requires the privilege' };
    expect(localOnly(caps, 'a test delivery', missing)).toBe(missing);
  });

  it('another portal (no marker) refuses them with the reason, naming the portal', () => {
    const caps = capabilitiesOf({ name: 'City of Example', portalName: 'ArcGIS Enterprise' });
    expect(caps.localExtras).toBe(false);
    expect(localOnly(caps, 'a test delivery')).toEqual({
      allowed: false,
      missing: '',
      reason: 'Not available on this portal: City of Example does not offer a test delivery.',
    });
    expect(capabilitiesOf({ name: '', portalName: 'ArcGIS Online' }).unavailable('x')).toBe('Not available on this portal: ArcGIS Online does not offer x.');
  });

  it('before portals/self answers nothing is refused, but nothing local is assumed either', () => {
    const caps = capabilitiesOf(undefined);
    expect(caps).toMatchObject({ known: false, localExtras: false });
    expect(localOnly(caps, 'a test delivery')).toEqual({ allowed: true });
  });
});
