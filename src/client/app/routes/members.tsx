/** Route module: the Members area — the list, one member, transferring a member's content, and inactivity policies. */
import { Route, Routes } from 'react-router';
import MembersPage from '../../features/members/MembersPage.tsx';
import PoliciesPage from '../../features/members/lifecycle/PoliciesPage.tsx';
import TransferPage from '../../features/transfer/TransferPage.tsx';
import { NotFound } from '../NavPage.tsx';
import MemberRoute from './member.tsx';

export default function MembersRoutes() {
  return (
    <Routes>
      <Route index element={<MembersPage />} />
      <Route path="transfer" element={<TransferPage />} />
      <Route path="policies" element={<PoliciesPage />} />
      <Route path=":username" element={<MemberRoute />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}
