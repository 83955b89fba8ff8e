/** Route module: the Overview area. */
export { default } from '../../features/overview/OverviewPage.tsx';
