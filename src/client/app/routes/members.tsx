/** Route module: the Members area — the list, and transferring a member's content. */
import { Route, Routes } from 'react-router';
import MembersPage from '../../features/members/MembersPage.tsx';
import TransferPage from '../../features/transfer/TransferPage.tsx';
import { NotFound } from '../NavPage.tsx';

export default function MembersRoutes() {
  return (
    <Routes>
      <Route index element={<MembersPage />} />
      <Route path="transfer" element={<TransferPage />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}
