/** Route module: the Members area. */
export { default } from '../../features/members/MembersPage.tsx';
