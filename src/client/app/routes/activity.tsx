/** Route module: the Activity area — the organization's history. */
import ActivityPage from '../../features/activity/ActivityPage.tsx';

export default ActivityPage;
