/**
 * A folder's title, as the service accepts it (createFolder, and the target folder of a transfer)
 * and as the console checks it on the field: one rule, here. Folders are one level under a
 * member's root, so a title holds no "/" — "/" alone names the root.
 */

export const FOLDER_TITLE_MAX_CHARS = 255;

/** Characters a folder title may not hold: path separators, those file systems refuse, and control characters. */
const FORBIDDEN = /[\\/<>:"|?*\u0000-\u001f]/;

/** The words of the rule, for the service's field errors. */
export const FOLDER_TITLE_RULE = 'must not hold / \\ < > : " | ? * or control characters';

/** Why `title` (already trimmed) cannot be a folder's title, or undefined when it can. */
export function folderTitleProblem(title: string): string | undefined {
  if (!title) return 'is required';
  if (title.length > FOLDER_TITLE_MAX_CHARS) return `must be at most ${FOLDER_TITLE_MAX_CHARS} characters`;
  if (FORBIDDEN.test(title) || title === '.' || title === '..') return FOLDER_TITLE_RULE;
  return undefined;
}

/**
 * A target folder as typed in a form: "" and "/" are the root; a leading "/" is how people write
 * a folder under the root ("/Hydrants"), not part of its title, so it is left out. The title that
 * remains is checked by the rule above.
 */
export function targetFolderOf(typed: string): { folder: string; problem?: string } {
  const trimmed = typed.trim();
  let start = 0;
  while (start < trimmed.length && trimmed[start] === '/') start++;
  if (start === trimmed.length) return { folder: '/' };
  const title = trimmed.slice(start).trim();
  const problem = folderTitleProblem(title);
  return problem ? { folder: title, problem } : { folder: title };
}
