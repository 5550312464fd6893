// What a preview shows: per file that a WorkspaceEdit would change, its
// text now and after the edit. Nothing here depends on VS Code, so that
// the tests run it on the server's real replies.

import { TextDocument } from 'vscode-languageserver-textdocument';

import { WireTextEdit, WireWorkspaceEdit } from './report';

/** A file as a preview shows it. */
export interface PreviewFile {
  /** uri is the file's URI (for a move, where it goes). */
  uri: string;
  /** note says what happens to the file besides its text: "created", "deleted", "moved from X". */
  note?: string;
  /** existing says whether the file exists now (its before is its text). */
  existing: boolean;
  before: string;
  after: string;
}

/**
 * previewFiles returns the files that edit changes, in the order it first
 * names them, each with its text now (read: the buffer when open, else
 * the disk; undefined when there is none) and after the edit. Files whose
 * text does not change and that are not created, moved or deleted are
 * left out.
 */
export async function previewFiles(
  edit: WireWorkspaceEdit,
  read: (uri: string) => Promise<string | undefined>,
): Promise<PreviewFile[]> {
  const files = new Map<string, PreviewFile>();
  const current = async (uri: string): Promise<PreviewFile> => {
    let f = files.get(uri);
    if (!f) {
      const text = await read(uri);
      f = { uri, existing: text !== undefined, before: text ?? '', after: text ?? '' };
      files.set(uri, f);
    }
    return f;
  };
  for (const change of edit.documentChanges ?? []) {
    if (!('kind' in change)) {
      const f = await current(change.textDocument.uri);
      f.after = applyTextEdits(f.uri, f.after, change.edits);
      continue;
    }
    switch (change.kind) {
      case 'create': {
        const f = await current(change.uri);
        f.after = '';
        f.note = 'created';
        break;
      }
      case 'delete': {
        const f = await current(change.uri);
        f.after = '';
        f.note = 'deleted';
        break;
      }
      case 'rename': {
        const from = await current(change.oldUri);
        const to: PreviewFile = { uri: change.newUri, existing: false, before: '', after: from.after, note: `moved from ${change.oldUri}` };
        from.after = '';
        from.note = `moved to ${change.newUri}`;
        files.set(change.newUri, to);
        break;
      }
    }
  }
  for (const [uri, edits] of Object.entries(edit.changes ?? {})) {
    const f = await current(uri);
    f.after = applyTextEdits(uri, f.after, edits);
  }
  return [...files.values()].filter((f) => f.before !== f.after || f.note !== undefined);
}

/** applyTextEdits returns text with the LSP edits (UTF-16 positions) applied. */
export function applyTextEdits(uri: string, text: string, edits: WireTextEdit[]): string {
  return TextDocument.applyEdits(TextDocument.create(uri, 'plaintext', 0, text), edits);
}
