/** Route module: sign-in. */
export { default } from '../../features/auth/SignInPage.tsx';
