/**
 * A bulk action under way: how far it is, where it runs (the portal, or this browser tab), and
 * Pause / Resume / Cancel. A server job goes on when the tab is closed; a browser run stops with
 * the tab and is resumed from the Members page.
 */
import { Alert, Button, Group, Text } from '@mantine/core';
import { useState } from 'react';
import { describeError } from '../../../api/index.ts';
import { BulkProgress } from '../../../components/Bulk.tsx';
import { DialogFooter, DialogLayout, DialogScroll } from '../../../components/DialogFooter.tsx';
import { BULK_TITLES } from './plan.ts';
import type { BulkRunState } from './useBulkRun.ts';

export interface BulkRunProgressProps {
  state: BulkRunState;
  error: unknown;
  onControl: (verb: 'pause' | 'resume' | 'cancel') => void;
  onClose: () => void;
}

const WHERE = {
  server: 'The portal runs this job: it goes on if you close this window or the browser, and you can come back to it from the Members page.',
  browser: 'This browser tab runs this action: if the tab is closed, the action stops and can be resumed from the Members page.',
};

export function BulkRunProgress({ state, error, onControl, onClose }: BulkRunProgressProps) {
  const [pausing, setPausing] = useState(false);
  const paused = state.phase === 'paused';
  const label = `${BULK_TITLES[state.kind]}: ${paused ? 'paused' : state.phase === 'starting' ? 'starting' : 'working'}`;
  const act = (verb: 'pause' | 'resume' | 'cancel') => {
    setPausing(verb === 'pause');
    onControl(verb);
  };
  return (
    <DialogLayout>
      <DialogScroll gap="md">
        <BulkProgress label={label} done={state.done} total={state.total} autoFocus />
        <Text size="sm" c="dimmed">
          {WHERE[state.mode]}
        </Text>
        {error ? (
          <Alert color="red" variant="light" title="The portal did not answer as expected">
            {describeError(error)}
          </Alert>
        ) : null}
      </DialogScroll>
      <DialogFooter>
        <Group gap="sm">
          {paused ? (
            <Button onClick={() => act('resume')}>Resume</Button>
          ) : (
            <Button variant="default" disabled={pausing || state.phase === 'starting'} onClick={() => act('pause')}>
              {pausing ? 'Pausing…' : 'Pause'}
            </Button>
          )}
          {/* A browser run is cancelled once paused (a slice may be on its way); the portal stops a job at once. */}
          {state.mode === 'server' || paused ? (
            <Button variant="default" color="red" disabled={state.phase === 'starting'} onClick={() => act('cancel')}>
              Cancel the rest
            </Button>
          ) : null}
          <Button variant="subtle" onClick={onClose}>
            {state.mode === 'server' ? 'Close (the job goes on)' : 'Close'}
          </Button>
        </Group>
      </DialogFooter>
    </DialogLayout>
  );
}
