/**
 * Add item: one dialog, four ways in — a file (drag and drop; large files go through a multipart
 * upload that runs on in the job tray), a URL (optionally behind the portal's rate-limited service
 * proxy), text or JSON, and a data URL the portal downloads in the background. Options common to
 * all: title, type, tags, summary, folder, thumbnail and a relationship made with the item. The
 * form's state and submit live in useAddItemForm; each source is a component of its own.
 */
import { Alert, Button, Modal, Progress, Tabs } from '@mantine/core';
import { DialogFooter, DialogLayout, DialogScroll, DialogTop } from '../../components/DialogFooter.tsx';
import { IconAlert } from '../../components/icons.tsx';
import { useFormDialog } from '../../components/useDirtyGuard.tsx';
import { AddItemCommonFields } from './AddItemCommonFields.tsx';
import { AddItemDataUrlSource } from './AddItemDataUrlSource.tsx';
import { AddItemFileSource } from './AddItemFileSource.tsx';
import { AddItemRelationFields } from './AddItemRelationFields.tsx';
import { AddItemTextSource } from './AddItemTextSource.tsx';
import { AddItemUrlSource } from './AddItemUrlSource.tsx';
import { useAddItemForm } from './useAddItemForm.tsx';

export function AddItemModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  // Esc, the overlay, the close button and Cancel ask before typed input is thrown away.
  const { cancel, close, onDirtyChange } = useFormDialog(opened, onClose);
  return (
    <Modal opened={opened} onClose={cancel} title="Add item" size="xl" centered>
      {opened ? <AddItemForm onClose={close} onCancel={cancel} onDirtyChange={onDirtyChange} /> : null}
    </Modal>
  );
}

function AddItemForm({ onClose, onCancel, onDirtyChange }: { onClose: () => void; onCancel: () => void; onDirtyChange: (dirty: boolean) => void }) {
  const state = useAddItemForm({ onClose, onDirtyChange });
  const { form, err, formError, sent } = state;
  return (
    <form onSubmit={state.onSubmit} noValidate aria-label="Add item">
      {/* Tabs hold the whole layout: their list stays above the scrolling part, their panels scroll. */}
      <Tabs value={state.mode} onChange={state.setMode} keepMounted={false}>
        <DialogLayout>
          <DialogTop>
            <Tabs.List>
              <Tabs.Tab value="file">File</Tabs.Tab>
              <Tabs.Tab value="url">URL</Tabs.Tab>
              <Tabs.Tab value="text">Text or JSON</Tabs.Tab>
              <Tabs.Tab value="dataUrl">Download from URL</Tabs.Tab>
            </Tabs.List>
          </DialogTop>
          <DialogScroll gap="md">
            {formError ? (
              <Alert color="red" variant="light" icon={<IconAlert />} title="The item was not added" role="alert" mt="md">
                {formError}
              </Alert>
            ) : null}
            <Tabs.Panel value="file" pt="md">
              <AddItemFileSource form={form} err={err} onFile={state.onFile} />
            </Tabs.Panel>
            <Tabs.Panel value="url" pt="md">
              <AddItemUrlSource form={form} err={err} onUrlChange={state.onUrlChange} applyGuessedType={state.applyGuessedType} />
            </Tabs.Panel>
            <Tabs.Panel value="text" pt="md">
              <AddItemTextSource form={form} err={err} />
            </Tabs.Panel>
            <Tabs.Panel value="dataUrl" pt="md">
              <AddItemDataUrlSource form={form} err={err} />
            </Tabs.Panel>

            <AddItemCommonFields form={form} err={err} titleProposal={state.titleProposal} folders={state.folders} />
            <AddItemRelationFields form={form} err={err} />

            {sent ? <Progress value={(sent.loaded / Math.max(1, sent.total)) * 100} aria-label="Upload progress" /> : null}
          </DialogScroll>
          <DialogFooter>
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
            <Button type="submit" loading={form.formState.isSubmitting}>
              Add item
            </Button>
          </DialogFooter>
        </DialogLayout>
      </Tabs>
    </form>
  );
}
