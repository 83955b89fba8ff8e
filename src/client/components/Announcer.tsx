/**
 * The console's two live regions (polite and assertive), mounted once in the providers. They are
 * in the page from the start — screen readers only speak changes to a region they already know —
 * and each announcement replaces the last, cleared first so that repeated words are spoken again.
 *
 * Mantine's notifications (how mutations report "saved" or "refused, because …") are not copied
 * here: each toast is itself an alert (role="alert"), spoken when it appears; a copy would be
 * spoken twice and found twice by anyone searching the page for the words.
 */
import { VisuallyHidden } from '@mantine/core';
import { useEffect, useState } from 'react';
import { subscribeAnnouncements, type Politeness } from '../lib/announce.ts';

export function Announcer() {
  const [said, setSaid] = useState<Record<Politeness, string>>({ polite: '', assertive: '' });

  useEffect(() => {
    const timers = new Set<ReturnType<typeof setTimeout>>();
    const unsubscribe = subscribeAnnouncements(({ message, politeness }) => {
      setSaid((s) => ({ ...s, [politeness]: '' }));
      // A tick later, so the cleared region and the new words are two changes.
      const t = setTimeout(() => {
        timers.delete(t);
        setSaid((s) => ({ ...s, [politeness]: message }));
      }, 50);
      timers.add(t);
    });
    return () => {
      unsubscribe();
      for (const t of timers) clearTimeout(t);
    };
  }, []);

  return (
    <VisuallyHidden>
      {/* aria-live without role="status"/"alert": the page's own status and alert regions stay the only ones by those roles. */}
      <div aria-live="polite" aria-atomic="true" data-testid="announcer-polite">
        {said.polite}
      </div>
      <div aria-live="assertive" aria-atomic="true" data-testid="announcer-assertive">
        {said.assertive}
      </div>
    </VisuallyHidden>
  );
}
