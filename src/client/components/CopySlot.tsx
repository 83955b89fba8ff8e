/**
 * Where Content opens "Copy to…". The dialog belongs to the copy feature; features do not import
 * each other, so the app hands it down through this context (app/providers.tsx), as it does the
 * impact checks (ImpactSlot.tsx). Without a provider (a component test of one feature) there is no
 * dialog and no button for it.
 */
import { createContext, Suspense, useContext, type ComponentType } from 'react';
import type { Item } from '../api/index.ts';

export interface CopyToDialogProps {
  items: readonly Item[];
  opened: boolean;
  onClose: () => void;
}

export interface CopyComponents {
  CopyToDialog: ComponentType<CopyToDialogProps>;
  /** Copies that stopped before they finished, offered to resume (shown on Content)… */
  ResumeCopies?: ComponentType;
  /** …loaded only when this says there is one. */
  anyUnfinishedCopy?: () => boolean;
}

const CopyContext = createContext<CopyComponents | null>(null);

export const CopyProvider = CopyContext.Provider;

export function CopyToDialogSlot(props: CopyToDialogProps) {
  const c = useContext(CopyContext);
  return c && props.opened ? (
    <Suspense fallback={null}>
      <c.CopyToDialog {...props} />
    </Suspense>
  ) : null;
}

export function ResumeCopiesSlot() {
  const c = useContext(CopyContext);
  return c?.ResumeCopies && c.anyUnfinishedCopy?.() ? (
    <Suspense fallback={null}>
      <c.ResumeCopies />
    </Suspense>
  ) : null;
}

/** Whether "Copy to…" can be offered. */
export function useCopyAvailable(): boolean {
  return !!useContext(CopyContext);
}
