/** Add item from a file: drop or choose one (files of the multipart threshold or more go in parts). */
import { Group, Stack, Text } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { useWatch } from 'react-hook-form';
import { IconUpload } from '../../components/icons.tsx';
import { formatBytes } from '../../lib/format.ts';
import { MULTIPART_THRESHOLD_BYTES } from './upload.ts';
import type { AddItemSourceProps } from './useAddItemForm.tsx';

export function AddItemFileSource({ form, err, onFile }: AddItemSourceProps & { onFile: (f: File | null) => void }) {
  const file = useWatch({ control: form.control, name: 'file' });
  return (
    <>
      <Dropzone onDrop={(files) => onFile(files[0] ?? null)} multiple={false} aria-label="Drop a file here or choose one">
        <Group justify="center" gap="md" mih={110} style={{ pointerEvents: 'none' }}>
          <IconUpload size={32} />
          <Stack gap={2}>
            <Text fw={600}>{file ? file.name : 'Drop a file here, or click to choose one'}</Text>
            <Text size="sm" c="dimmed">
              {file
                ? `${formatBytes(file.size)}${file.size >= MULTIPART_THRESHOLD_BYTES ? ' — sent in parts, with progress in the tray' : ''}`
                : `Files of ${formatBytes(MULTIPART_THRESHOLD_BYTES)} or more are sent in parts that can be retried.`}
            </Text>
          </Stack>
        </Group>
      </Dropzone>
      {err('file') ? (
        <Text c="red" size="sm" mt={4} role="alert">
          {err('file')}
        </Text>
      ) : null}
    </>
  );
}
