// The pending hunks of the server's suggestions, drawn in the editors
// that show their documents: the text a hunk removes on the diff editor's
// removed background, the text it adds after it, in the inserted colour,
// without changing the buffer. The server's code lenses (Accept | Reject
// above each hunk, Accept all | Reject all at the top) stay as they are:
// this draws no second set. The commands act on the hunk under the
// cursor, on a file's hunks, or on every hunk.

import * as vscode from 'vscode';

/** A hunk as graft.suggestions lists it (the fields the extension reads). */
export interface WireHunk {
  id: string;
  uri: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  oldText: string;
  newText: string;
  summary: string;
  state: string;
}

/** A function that runs a server command and returns its reply. */
export type Execute = (command: string, args: object) => Promise<unknown>;

/** The debounce of the refresh after a change of a document or of the server's diagnostics. */
const refreshDelay = 150;

/** Hunks keeps the pending hunks of the visible documents and draws them. */
export class Hunks implements vscode.Disposable {
  private readonly removedLine = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor('diffEditor.removedLineBackground'),
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.deletedForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
  });
  private readonly removedText = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor('diffEditor.removedTextBackground'),
  });
  private readonly added = vscode.window.createTextEditorDecorationType({
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.addedForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
  });
  private readonly status: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];
  /** The pending hunks, by document URI. */
  private byUri = new Map<string, WireHunk[]>();
  private timer: NodeJS.Timeout | undefined;

  /** execute runs the server's commands; it rejects when no server runs. */
  constructor(private readonly execute: Execute) {
    this.status = vscode.window.createStatusBarItem('graft.hunks', vscode.StatusBarAlignment.Left, -1);
    this.status.name = 'Graft hunks';
    this.status.command = 'graft.nextHunk';
    this.status.tooltip = 'Graft: go to the next pending hunk';
    this.disposables.push(
      this.removedLine,
      this.removedText,
      this.added,
      this.status,
      vscode.window.onDidChangeVisibleTextEditors(() => this.schedule()),
      vscode.window.onDidChangeTextEditorSelection(() => this.updateContext()),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (this.byUri.has(e.document.uri.toString())) {
          this.schedule();
        }
      }),
      // The server publishes a hint per hunk (code "suggestion"): its
      // diagnostics change when its hunks do. Other sources' changes
      // (a linter's) ask nothing of the server.
      vscode.languages.onDidChangeDiagnostics((e) => {
        if (e.uris.some((u) => this.byUri.has(u.toString()) || vscode.languages.getDiagnostics(u).some((d) => d.code === 'suggestion'))) {
          this.schedule();
        }
      }),
    );
  }

  /** register adds the hunk commands. */
  register(): vscode.Disposable[] {
    const run = (id: string, fn: () => Promise<void>) =>
      vscode.commands.registerCommand(id, () => fn().catch((err) => {
        void vscode.window.showErrorMessage(`Graft: ${err instanceof Error ? err.message : String(err)}`);
      }));
    return [
      run('graft.acceptHunk', () => this.atCursor('graft.accept')),
      run('graft.rejectHunk', () => this.atCursor('graft.reject')),
      run('graft.acceptAllHunks', () => this.inFile('graft.accept')),
      run('graft.rejectAllHunks', () => this.inFile('graft.reject')),
      run('graft.acceptAllHunksEverywhere', () => this.act('graft.accept', {})),
      run('graft.rejectAllHunksEverywhere', () => this.act('graft.reject', {})),
      run('graft.nextHunk', () => this.go(1)),
      run('graft.prevHunk', () => this.go(-1)),
    ];
  }

  /** schedule refreshes the hunks soon, once for a burst of changes. */
  schedule(): void {
    if (this.timer) {
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.refresh();
    }, refreshDelay);
  }

  /**
   * settled refreshes now when a refresh is due: a command on the hunk
   * under the cursor right after an edit (a key pressed at once) must see
   * the hunks where the edit moved them.
   */
  private async settled(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
      await this.refresh();
    }
  }

  /** refresh asks the server for the hunks of the visible documents and draws them. */
  async refresh(): Promise<void> {
    let all: WireHunk[];
    try {
      all = ((await this.execute('graft.suggestions', {})) as WireHunk[] | null) ?? [];
    } catch {
      all = [];
    }
    const byUri = new Map<string, WireHunk[]>();
    for (const h of all) {
      if (h.state !== 'pending') {
        continue;
      }
      const key = vscode.Uri.parse(h.uri).toString();
      byUri.set(key, [...(byUri.get(key) ?? []), h]);
    }
    for (const list of byUri.values()) {
      list.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
    }
    this.byUri = byUri;
    for (const editor of vscode.window.visibleTextEditors) {
      this.draw(editor);
    }
    this.updateStatus(all.filter((h) => h.state === 'pending').length);
    this.updateContext();
  }

  /** draw decorates editor with the pending hunks of its document. */
  private draw(editor: vscode.TextEditor): void {
    const hunks = this.byUri.get(editor.document.uri.toString()) ?? [];
    const lines: vscode.Range[] = [];
    const texts: vscode.Range[] = [];
    const added: vscode.DecorationOptions[] = [];
    for (const h of hunks) {
      const r = toRange(h);
      // The lines the hunk removes whole (a range that ends at the start
      // of a line leaves that line), and the part of a line it removes.
      const lastLine = r.end.character === 0 && r.end.line > r.start.line ? r.end.line - 1 : r.end.line;
      if (!r.isEmpty) {
        if (r.start.character === 0 && (r.end.character === 0 || r.end.character >= editor.document.lineAt(lastLine).text.length)) {
          lines.push(new vscode.Range(r.start.line, 0, lastLine, 0));
        } else {
          texts.push(r);
        }
      }
      if (h.newText !== '') {
        // The added text after the last removed line (an insertion's
        // after the line above it), its line breaks shown as ⏎.
        const at = r.isEmpty && r.start.character === 0 && r.start.line > 0 ? r.start.line - 1 : lastLine;
        const end = editor.document.lineAt(Math.min(at, editor.document.lineCount - 1)).range.end;
        added.push({
          range: new vscode.Range(end, end),
          hoverMessage: new vscode.MarkdownString().appendMarkdown(`**Graft:** ${h.summary}\n\n`).appendCodeblock(h.newText),
          renderOptions: {
            after: {
              contentText: `  + ${h.newText.replace(/\n$/, '').split('\n').map((l) => l.trim()).join(' ⏎ ')}`,
              // Opaque, framed in the added colour: a translucent green
              // on the removed line's red reads as neither.
              backgroundColor: new vscode.ThemeColor('editor.background'),
              border: '1px solid',
              borderColor: new vscode.ThemeColor('editorGutter.addedBackground'),
              color: new vscode.ThemeColor('editor.foreground'),
              fontStyle: 'italic',
              margin: '0 0 0 1em',
            },
          },
        });
      }
    }
    editor.setDecorations(this.removedLine, lines);
    editor.setDecorations(this.removedText, texts);
    editor.setDecorations(this.added, added);
  }

  private updateStatus(n: number): void {
    if (n === 0) {
      this.status.hide();
      return;
    }
    this.status.text = `Graft: ${n} ${n === 1 ? 'hunk' : 'hunks'} pending`;
    this.status.show();
  }

  /** updateContext sets graft.hunkPending: whether the active editor's document has a pending hunk. */
  private updateContext(): void {
    const doc = vscode.window.activeTextEditor?.document;
    const pending = doc ? (this.byUri.get(doc.uri.toString())?.length ?? 0) > 0 : false;
    void vscode.commands.executeCommand('setContext', 'graft.hunkPending', pending);
  }

  /** hunkAtCursor returns the hunk of the active editor under (or nearest after) the cursor's line. */
  private hunkAtCursor(): WireHunk | undefined {
    const editor = vscode.window.activeTextEditor;
    if (!editor) {
      return undefined;
    }
    const hunks = this.byUri.get(editor.document.uri.toString()) ?? [];
    const line = editor.selection.active.line;
    return hunks.find((h) => h.range.start.line <= line && line <= Math.max(h.range.start.line, h.range.end.line - (h.range.end.character === 0 ? 1 : 0)))
      ?? hunks.find((h) => h.range.start.line >= line);
  }

  private async atCursor(command: string): Promise<void> {
    await this.settled();
    const h = this.hunkAtCursor();
    if (!h) {
      void vscode.window.showInformationMessage('Graft: no pending hunk under the cursor.');
      return;
    }
    await this.act(command, { id: h.id, uri: h.uri });
  }

  private async inFile(command: string): Promise<void> {
    const doc = vscode.window.activeTextEditor?.document;
    if (!doc || !this.byUri.has(doc.uri.toString())) {
      void vscode.window.showInformationMessage('Graft: no pending hunk in this file.');
      return;
    }
    await this.act(command, { uri: doc.uri.toString() });
  }

  private async act(command: string, args: object): Promise<void> {
    await this.execute(command, args);
    await this.refresh();
  }

  /** go moves the cursor to the next (dir 1) or previous (-1) pending hunk, wrapping around. */
  private async go(dir: 1 | -1): Promise<void> {
    await this.settled();
    const editor = vscode.window.activeTextEditor;
    const hunks = editor ? this.byUri.get(editor.document.uri.toString()) ?? [] : [];
    if (!editor || hunks.length === 0) {
      void vscode.window.showInformationMessage('Graft: no pending hunk in this file.');
      return;
    }
    const line = editor.selection.active.line;
    const next = dir === 1
      ? hunks.find((h) => h.range.start.line > line) ?? hunks[0]
      : [...hunks].reverse().find((h) => h.range.start.line < line) ?? hunks[hunks.length - 1];
    const at = new vscode.Position(next.range.start.line, 0);
    editor.selection = new vscode.Selection(at, at);
    editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  dispose(): void {
    if (this.timer) {
      clearTimeout(this.timer);
    }
    for (const d of this.disposables) {
      d.dispose();
    }
  }
}

/** toRange converts a hunk's range. */
function toRange(h: WireHunk): vscode.Range {
  return new vscode.Range(h.range.start.line, h.range.start.character, h.range.end.line, h.range.end.character);
}
