/**
 * The conformance page: the ArcGIS Maps SDK for JavaScript configured as an app on another origin
 * would configure it, its own classes put on `window` for the tests to drive with page.evaluate.
 * The portal URL comes from `window.sdkPortalUrl`, set by the tests before the page loads (an init
 * script, so that it survives the OAuth redirect back to this page without a query string that
 * would change the redirect URI).
 */
import esriConfig from '@arcgis/core/config';
import IdentityManager from '@arcgis/core/identity/IdentityManager';
import OAuthInfo from '@arcgis/core/identity/OAuthInfo';
import Portal from '@arcgis/core/portal/Portal';
import PortalGroup from '@arcgis/core/portal/PortalGroup';
import PortalItem from '@arcgis/core/portal/PortalItem';
import PortalQueryParams from '@arcgis/core/portal/PortalQueryParams';
import PortalUser from '@arcgis/core/portal/PortalUser';
import WebMap from '@arcgis/core/WebMap';

const sdk = { esriConfig, IdentityManager, OAuthInfo, Portal, PortalGroup, PortalItem, PortalQueryParams, PortalUser, WebMap };

declare global {
  interface Window {
    sdkPortalUrl?: string;
    sdk: typeof sdk;
  }
}

const portalUrl = window.sdkPortalUrl;
if (!portalUrl) throw new Error('window.sdkPortalUrl is not set: the tests set it before the page loads');

// Everything the SDK loads lazily (translations, workers) comes from this origin, never js.arcgis.com.
esriConfig.assetsPath = `${location.origin}/arcgis-assets`;
esriConfig.portalUrl = portalUrl;
// Send the signed-in user's token to the portal, as an app on another origin must.
esriConfig.request.useIdentity = true;
esriConfig.request.trustedServers.push(new URL(portalUrl).origin);

window.sdk = sdk;
document.getElementById('status')!.textContent = 'ready';
