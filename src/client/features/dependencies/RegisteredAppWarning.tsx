/**
 * Deleting a registered app (an OAuth app item, typeKeyword "Registered App") ends the sign-ins
 * through it: no item's data names an app, so the dependency answers say nothing uses it — this
 * says what does. Shown in the delete step beside the impact check.
 */
import { Alert, List } from '@mantine/core';
import { REGISTERED_APP_KEYWORD } from '../../../shared/contract/oauth.ts';
import type { ImpactItem } from '../../components/ImpactSlot.tsx';

export const isRegisteredApp = (item: ImpactItem) => !!item.typeKeywords?.includes(REGISTERED_APP_KEYWORD);

export function RegisteredAppWarning({ items }: { items: readonly ImpactItem[] }) {
  const apps = items.filter(isRegisteredApp);
  if (!apps.length) return null;
  const one = apps.length === 1;
  return (
    <Alert color="red" variant="light" title={one ? 'Sign-ins through this app stop working' : 'Sign-ins through these apps stop working'} role="alert">
      {one ? 'It is' : 'They are'} registered for sign-in (OAuth 2.0). Once deleted, nobody can sign in through {one ? 'it' : 'them'}: pages and scripts that
      use {one ? 'its' : 'their'} client id stop signing people in, and sign-ins kept through {one ? 'it' : 'them'} end.
      {apps.length > 1 ? (
        <List size="sm" mt={4} aria-label="Registered apps">
          {apps.map((a) => (
            <List.Item key={a.id}>{a.title}</List.Item>
          ))}
        </List>
      ) : null}
    </Alert>
  );
}
