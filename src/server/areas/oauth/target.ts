/**
 * A registered app, as the target of the operations that read or change its registration
 * (http/target.ts): its item's owner manages it, and a default administrator of its organization
 * (OAUTH_OPERATIONS). Loading answers the area's 400 for an app that does not exist, before any
 * authority is asked; every refusal is worded as the area always has.
 */
import { clientIdSchema } from '../../../shared/contract/oauth.ts';
import { ApiError } from '../../http/errors.ts';
import type { Loaded, Refusals, Target } from '../../http/target.ts';
import * as repo from './repo.ts';
import { appNotFound } from './service.ts';

const NOT_A_MANAGER = "Only the app item's owner or a default administrator of its organization may do this.";
const refusals: Refusals = { otherOrg: NOT_A_MANAGER, notDefaultAdmin: NOT_A_MANAGER };

const loaded = (app: repo.AppRow): Loaded<repo.AppRow> => ({ value: app, orgId: app.org_id, ownerId: app.owner_id });

/** The app the path's `:clientId` names. */
export const APP: Target<repo.AppRow> = {
  refusals,
  async load({ path, portal }) {
    // A path segment that cannot be a client id is not looked up (it may hold anything, NUL included).
    const app = clientIdSchema.safeParse(path.clientId).success ? await repo.findApp(portal.db, path.clientId) : undefined;
    if (!app) throw appNotFound();
    return loaded(app);
  },
};

/** The app registered for the path's `:itemId` (registeredAppInfo). */
export const APP_OF_ITEM: Target<repo.AppRow> = {
  refusals,
  async load({ path, portal }) {
    const app = /^[0-9a-f]{32}$/i.test(path.itemId) ? await repo.findAppByItem(portal.db, path.itemId.toLowerCase()) : undefined;
    if (!app) throw new ApiError(400, 'Item is not a registered app.', [`Item '${path.itemId}' is not registered as an app.`]);
    return loaded(app);
  },
};
