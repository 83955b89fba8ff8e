/** Add item from a data URL: the portal downloads the file in the background (the tray follows it). */
import { TextInput } from '@mantine/core';
import type { AddItemSourceProps } from './useAddItemForm.tsx';

export function AddItemDataUrlSource({ form, err }: AddItemSourceProps) {
  return (
    <TextInput
      label="Download URL"
      description="The portal downloads the file in the background (in ranges when the server allows it). You can close this dialog; the tray follows the download."
      placeholder="https://data.example.com/parks.zip"
      required
      error={err('dataUrl')}
      {...form.register('dataUrl')}
    />
  );
}
