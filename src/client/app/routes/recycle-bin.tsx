/** Route module: the Recycle bin — deleted items, restored or deleted for good. */
import RecycleBinPage from '../../features/recycleBin/RecycleBinPage.tsx';

export default RecycleBinPage;
