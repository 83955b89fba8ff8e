/** Route module: the Groups area — the list and one group. */
import { Route, Routes } from 'react-router';
import GroupPage from '../../features/groups/GroupPage.tsx';
import GroupsPage from '../../features/groups/GroupsPage.tsx';
import { NotFound } from '../NavPage.tsx';

export default function GroupsRoutes() {
  return (
    <Routes>
      <Route index element={<GroupsPage />} />
      <Route path=":groupId" element={<GroupPage />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}
