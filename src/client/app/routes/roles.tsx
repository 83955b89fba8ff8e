/** Route module: the Roles area — the list, a new role, one role. */
import { Route, Routes } from 'react-router';
import RoleEditorPage from '../../features/roles/RoleEditorPage.tsx';
import RolesPage from '../../features/roles/RolesPage.tsx';
import { NotFound } from '../NavPage.tsx';

export default function RolesRoutes() {
  return (
    <Routes>
      <Route index element={<RolesPage />} />
      <Route path="new" element={<RoleEditorPage />} />
      <Route path=":roleId" element={<RoleEditorPage />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}
