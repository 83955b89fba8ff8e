/** Route: one member's page (`/members/<username>`), inside the Members area's routes. */
import { useParams } from 'react-router';
import MemberPage from '../../features/members/MemberPage.tsx';

export default function MemberRoute() {
  const { username = '' } = useParams();
  // A new member, a new page: nothing of the previous member's dialogs carries over.
  return <MemberPage key={username} username={username} />;
}
