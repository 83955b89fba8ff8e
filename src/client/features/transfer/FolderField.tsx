/**
 * The transfer's target folder, checked as it is typed by the rule the service applies
 * (shared/folderTitle.ts): "/" or nothing is the root; a leading "/" is not part of a folder's
 * name, and the field says which folder the items will go to; a title the service would refuse is
 * refused here, with the reason, before any item is checked.
 */
import { TextInput } from '@mantine/core';
import { FOLDER_TITLE_MAX_CHARS } from '../../../shared/folderTitle.ts';

export interface FolderFieldProps {
  value: string;
  onChange: (typed: string) => void;
  /** The folder `value` names (targetFolderOf), with what is wrong with it. */
  target: { folder: string; problem?: string };
}

export function FolderField({ value, onChange, target }: FolderFieldProps) {
  const typed = value.trim();
  const description =
    target.folder === '/'
      ? '“/” is the new owner’s root folder. A folder that does not exist is created.'
      : typed === target.folder
        ? `The items go to the folder “${target.folder}”, created if the new owner has none of that name.`
        : `The items go to the folder “${target.folder}” (a leading “/” is not part of a folder’s name).`;
  return (
    <TextInput
      label="Folder"
      description={description}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      // One more than a title may hold: a title one character too long is refused with the reason, not cut.
      maxLength={FOLDER_TITLE_MAX_CHARS + 2}
      error={target.problem ? `Folder title ${target.problem}.` : undefined}
    />
  );
}
