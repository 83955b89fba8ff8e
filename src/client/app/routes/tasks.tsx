/** Route module: the Scheduled tasks area. */
export { default } from '../../features/tasks/TasksPage.tsx';
