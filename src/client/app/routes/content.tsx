/** Route module: the Content area — the list, one item (with its dependencies), and transferring items chosen there. */
import { Route, Routes } from 'react-router';
import ContentPage from '../../features/content/ContentPage.tsx';
import ItemPage, { type ItemPageTab } from '../../features/content/ItemPage.tsx';
import { UsesPanel } from '../../features/dependencies/UsesPanel.tsx';
import TransferPage from '../../features/transfer/TransferPage.tsx';
import { NotFound } from '../NavPage.tsx';

/** The item page's tabs from other features: what the item uses and what uses it. */
const ITEM_TABS: readonly ItemPageTab[] = [{ value: 'dependencies', label: 'Dependencies', panel: (item) => <UsesPanel item={item} /> }];

export default function ContentRoutes() {
  return (
    <Routes>
      <Route index element={<ContentPage />} />
      <Route path="items/:itemId" element={<ItemPage extraTabs={ITEM_TABS} />} />
      <Route path="transfer" element={<TransferPage />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}
