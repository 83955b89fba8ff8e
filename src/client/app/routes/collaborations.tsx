/** Route module: the Collaborations area. */
export { default } from '../../features/collaborations/CollaborationsPage.tsx';
