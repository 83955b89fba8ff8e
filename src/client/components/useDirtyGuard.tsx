/**
 * One guard before typed input is thrown away (DESIGN: "a guard before discarding typed input"),
 * for every form: while `dirty`, leaving the page in the console asks first (react-router's
 * useBlocker), leaving or reloading the browser tab asks first (beforeunload), and closing a
 * dialog by Esc, its overlay, its close button or Cancel asks first (`confirmDiscard`).
 */
import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useBlocker } from 'react-router';

function openDiscardConfirm(discard: () => void, keep?: () => void) {
  // Confirming or cancelling also closes the question: only the first answer counts.
  let answered = false;
  const once = (f?: () => void) => () => {
    if (answered) return;
    answered = true;
    f?.();
  };
  modals.openConfirmModal({
    title: 'Discard your changes?',
    children: <Text size="sm">What you typed here is not saved and will be lost.</Text>,
    labels: { confirm: 'Discard changes', cancel: 'Keep editing' },
    confirmProps: { color: 'red' },
    // Keeping is the safe answer: it is where focus lands, and closing the question means keeping.
    cancelProps: { 'data-autofocus': true },
    onConfirm: once(discard),
    onCancel: once(keep),
    onClose: once(keep),
  });
}

export interface DirtyGuard {
  /** Runs `discard` at once when nothing was typed, else after the user agrees to lose it. */
  confirmDiscard: (discard: () => void) => void;
  /** Lets the next navigation through unasked (after a save that moves on, for instance). */
  release: () => void;
}

export function useDirtyGuard(dirty: boolean): DirtyGuard {
  const released = useRef(false);
  // A release lasts while the input it let go is there: a form changed again is guarded again.
  useEffect(() => {
    if (!dirty) released.current = false;
  }, [dirty]);
  // A change of page only: tabs and filters kept in the query string do not lose the form.
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && !released.current && currentLocation.pathname !== nextLocation.pathname);
  const asking = useRef(false);
  useEffect(() => {
    if (blocker.state !== 'blocked' || asking.current) return;
    asking.current = true;
    openDiscardConfirm(
      () => {
        asking.current = false;
        blocker.proceed();
      },
      () => {
        asking.current = false;
        if (blocker.state === 'blocked') blocker.reset();
      },
    );
  }, [blocker]);

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      // The browser asks in its own words; both are needed across browsers.
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);

  const confirmDiscard = useCallback((discard: () => void) => (dirty ? openDiscardConfirm(discard) : discard()), [dirty]);
  const release = useCallback(() => {
    released.current = true;
  }, []);
  return { confirmDiscard, release };
}

export interface FormDialog {
  /** For the dialog's onClose and the form's Cancel: asks first when the form has changed. */
  cancel: () => void;
  /** Closes at once: after a save, or once what the dialog shows needs no answer. */
  close: () => void;
  /** The form inside reports whether it has changed (useReportDirty). */
  onDirtyChange: (dirty: boolean) => void;
}

/**
 * The closing of every dialog that holds a form: Esc, the overlay, the close button and Cancel go
 * through `cancel`, which asks before a changed form is thrown away; a save closes with `close`.
 */
export function useFormDialog(opened: boolean, onClose: () => void): FormDialog {
  const [dirty, setDirty] = useState(false);
  const guard = useDirtyGuard(opened && dirty);
  const { release } = guard;
  const close = useCallback(() => {
    // A save that closes may move on at once (to what it created): no question on the way.
    release();
    setDirty(false);
    onClose();
  }, [onClose, release]);
  return { cancel: () => guard.confirmDiscard(close), close, onDirtyChange: setDirty };
}

/** Tells the dialog around a form (useFormDialog) whether the form has changed. */
export function useReportDirty(dirty: boolean, onDirtyChange: (dirty: boolean) => void): void {
  useEffect(() => onDirtyChange(dirty), [dirty, onDirtyChange]);
}
