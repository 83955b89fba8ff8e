/** Route module: the Webhooks area — the lists and settings, one organization webhook. */
import { Route, Routes } from 'react-router';
import WebhookPage from '../../features/webhooks/WebhookPage.tsx';
import WebhooksPage from '../../features/webhooks/WebhooksPage.tsx';
import { NotFound } from '../NavPage.tsx';

export default function WebhooksRoutes() {
  return (
    <Routes>
      <Route index element={<WebhooksPage />} />
      <Route path=":webhookId" element={<WebhookPage />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}
