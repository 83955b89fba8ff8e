/** Route module: the Content area — the list, one item, and transferring items chosen there. */
import { Route, Routes } from 'react-router';
import ContentPage from '../../features/content/ContentPage.tsx';
import ItemPage from '../../features/content/ItemPage.tsx';
import TransferPage from '../../features/transfer/TransferPage.tsx';
import { NotFound } from '../NavPage.tsx';

export default function ContentRoutes() {
  return (
    <Routes>
      <Route index element={<ContentPage />} />
      <Route path="items/:itemId" element={<ItemPage />} />
      <Route path="transfer" element={<TransferPage />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}
