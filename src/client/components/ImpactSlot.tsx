/**
 * Where a confirm step shows what the change breaks, and where the "Deprecate and point to a
 * replacement" dialog opens. The checks belong to the dependencies feature; the confirm steps to
 * content and transfer; features do not import each other, so the app hands the dependencies
 * feature's components down through this context (app/providers.tsx) and the confirm steps render
 * the slots. Without a provider (a component test of one feature) the slots render nothing.
 */
import { createContext, Suspense, useContext, type ComponentType } from 'react';
import { Text } from '@mantine/core';
import type { Item } from '../api/index.ts';
import type { ItemAccessLevel } from '../lib/itemAccess.ts';

export type ImpactChange =
  | { kind: 'delete' }
  | { kind: 'deprecate' }
  /** Transfer to `newOwner`: the portal narrows the sharing to what they may share. */
  | { kind: 'transfer'; newOwner: string }
  /** The item's new sharing. */
  | { kind: 'sharing'; access: ItemAccessLevel; groups: readonly string[] }
  /** A service item's new URL. */
  | { kind: 'url'; url: string };

export type ImpactItem = Pick<Item, 'id' | 'title' | 'type' | 'owner' | 'access' | 'url'> & Partial<Pick<Item, 'typeKeywords'>>;

export interface ImpactCheckProps {
  /** The items about to change. */
  items: readonly ImpactItem[];
  change: ImpactChange;
  /** Deprecate: offers "Deprecate and point to a replacement". */
  onReplace?: () => void;
  /** Group titles the page already knows (the sharing panel's choices). */
  groupTitle?: (id: string) => string | undefined;
}

export interface ReplaceDialogProps {
  item: Item;
  opened: boolean;
  onClose: () => void;
}

export interface ImpactComponents {
  ImpactCheck: ComponentType<ImpactCheckProps>;
  ReplaceDialog: ComponentType<ReplaceDialogProps>;
}

const ImpactContext = createContext<ImpactComponents | null>(null);

export const ImpactProvider = ImpactContext.Provider;

/** The impact check of a confirm step (nothing without a provider). */
export function ImpactCheckSlot(props: ImpactCheckProps) {
  const c = useContext(ImpactContext);
  // Its own boundary: the provider's components load on first use, and a confirm step must not blank the page meanwhile.
  return c ? (
    <Suspense fallback={<Text size="sm">Checking what uses this item…</Text>}>
      <c.ImpactCheck {...props} />
    </Suspense>
  ) : null;
}

/** The replace dialog (nothing without a provider). */
export function ReplaceDialogSlot(props: ReplaceDialogProps) {
  const c = useContext(ImpactContext);
  return c ? (
    <Suspense fallback={null}>
      <c.ReplaceDialog {...props} />
    </Suspense>
  ) : null;
}

/** Whether the replace flow is available (a button to open it is shown only then). */
export function useReplaceAvailable(): boolean {
  return !!useContext(ImpactContext);
}
