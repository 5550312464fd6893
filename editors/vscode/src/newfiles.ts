// Files the server creates. It sends each as a CreateFile followed by a
// text edit that puts the file's text in it. VS Code makes a CreateFile on
// disk at once, empty, and puts the text in a buffer, unsaved: closed or
// quit without saving, it leaves an empty file behind (an empty .go file
// breaks the build). Given the text with the CreateFile, VS Code makes the
// file holding it, and one undo deletes it again. Nothing here depends on
// VS Code, so that the tests run it on the server's real replies.

import { WireWorkspaceEdit } from './report';

/** The options of a CreateFile as VS Code's WorkspaceEdit.createFile takes them, with the file's contents. */
export interface CreateOptions {
  overwrite?: boolean;
  ignoreIfExists?: boolean;
  contents?: Uint8Array;
}

/**
 * withContents returns edit with each file that it creates and then fills
 * (a CreateFile, then the file's only text edit, of no version, inserting
 * text at its start) as one CreateFile whose options carry the text,
 * encoded as UTF-8, as VS Code's createFile takes it; and the URIs of
 * those files. edit itself is not changed. A CreateFile with no text
 * after it stays as it is: the file is empty.
 */
export function withContents(edit: WireWorkspaceEdit): { edit: WireWorkspaceEdit; filled: string[] } {
  const changes = edit.documentChanges;
  if (!changes) {
    return { edit, filled: [] };
  }
  const out: NonNullable<WireWorkspaceEdit['documentChanges']> = [];
  const filled: string[] = [];
  for (let i = 0; i < changes.length; i++) {
    const c = changes[i];
    const next = changes[i + 1];
    if ('kind' in c && c.kind === 'create' && next && 'textDocument' in next && next.textDocument.uri === c.uri &&
      (next.textDocument.version === null || next.textDocument.version === undefined) &&
      next.edits.length === 1 && isStart(next.edits[0].range)) {
      const options: CreateOptions = { ...(c as { options?: CreateOptions }).options, contents: new TextEncoder().encode(next.edits[0].newText) };
      out.push({ ...c, options } as (typeof out)[number]);
      filled.push(c.uri);
      i++; // the text edit is in the CreateFile now
      continue;
    }
    out.push(c);
  }
  return { edit: { ...edit, documentChanges: out }, filled };
}

/** isStart reports whether a range is the empty range at a document's start. */
function isStart(r: { start: { line: number; character: number }; end: { line: number; character: number } }): boolean {
  return r.start.line === 0 && r.start.character === 0 && r.end.line === 0 && r.end.character === 0;
}
