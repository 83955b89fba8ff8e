/** Route module: the Dependencies area — items nothing uses and items many use, across the organization. */
import DependenciesPage from '../../features/dependencies/DependenciesPage.tsx';

export default DependenciesPage;
