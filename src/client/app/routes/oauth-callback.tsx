/** Route module: the OAuth 2.0 callback (the redirect URI registered for the console). */
export { default } from '../../features/auth/OAuthCallbackPage.tsx';
