// The Graft extension: a thin client over `graft serve`. The language
// client syncs the editor's buffers to the server and applies the server's
// edits (workspace/applyEdit) to them, with VS Code's own undo; the
// server's code actions, code lenses and diagnostics appear through VS
// Code's own UI. The commands below hand the server an agent's answer
// (from the clipboard or the selection) and show what it made of it.

import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  ApplyWorkspaceEditParams,
  ApplyWorkspaceEditRequest,
  ApplyWorkspaceEditResult,
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from 'vscode-languageclient/node';
import { Binary, installCommand, missingBinaryMessage, resolveBinary } from './binary';
import { Hunks } from './hunks';
import { withContents } from './newfiles';
import { previewFiles } from './preview';

import {
  AnswerSource,
  ApplyResult,
  PreviewResult,
  SuggestResult,
  WireWorkspaceEdit,
  explainError,
  formatReport,
  summarize,
} from './report';

/** fromWhere names where each kind of binary comes from, for the log. */
const fromWhere: Record<Binary['source'], string> = {
  setting: 'graft.path',
  bundled: 'the binary that comes with the extension',
  path: 'graft on PATH',
};

/** The scheme of the extension's read-only documents: reports and previews. */
const scheme = 'graft';

/**
 * agentLabel opens the label of the server's workspace/applyEdit that
 * carries an agent's answer through the editor link (docs/lsp.md).
 */
const agentLabel = "Graft: an agent's answer, ";

/** The extension's state while it is active. */
class Graft implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private readonly output: vscode.OutputChannel;
  private readonly status: vscode.StatusBarItem;
  private readonly docs = new VirtualDocuments();
  private readonly hunks: Hunks;
  private lastReport = '';
  private previews = 0;
  /** edits is the server's last workspace edit, applied or being applied: they go one at a time. */
  private edits: Promise<unknown> = Promise.resolve();
  private readonly disposables: vscode.Disposable[] = [];

  /** extensionPath is the extension's folder, which holds its own graft binary (bin/). */
  constructor(private readonly extensionPath: string) {
    this.output = vscode.window.createOutputChannel('Graft');
    this.status = vscode.window.createStatusBarItem('graft.status', vscode.StatusBarAlignment.Left, 0);
    this.status.name = 'Graft';
    this.status.command = 'graft.vscode.showReport';
    this.hunks = new Hunks((command, args) => this.request(command, args));
    this.disposables.push(
      this.hunks,
      this.output,
      this.status,
      vscode.workspace.registerTextDocumentContentProvider(scheme, this.docs),
    );
  }

  /** register adds the extension's commands. */
  register(context: vscode.ExtensionContext): void {
    const command = (id: string, title: string, run: () => Promise<void>) =>
      vscode.commands.registerCommand(id, () => run().catch((err) => this.fail(title, err)));
    context.subscriptions.push(
      this,
      command('graft.vscode.applyClipboard', 'Apply', () => this.applyClipboard()),
      command('graft.vscode.applySelection', 'Apply', () => this.applySelection()),
      command('graft.vscode.previewClipboard', 'Preview', () => this.previewClipboard()),
      command('graft.vscode.suggestClipboard', 'Suggest', () => this.suggestClipboard()),
      command('graft.vscode.showReport', 'Report', () => this.showReport()),
      ...this.hunks.register(),
      vscode.workspace.onDidChangeConfiguration(async (e) => {
        if (e.affectsConfiguration('graft')) {
          await this.stop();
          await this.start();
        }
      }),
    );
  }

  /**
   * start starts `graft serve`: the binary graft.path names, else the
   * extension's own, else graft on PATH; or says how to get one.
   */
  async start(): Promise<void> {
    const config = vscode.workspace.getConfiguration('graft');
    const binary = resolveBinary(config.get<string>('path'), this.extensionPath);
    const bin = binary.path;
    if (!bin) {
      this.output.appendLine(`graft binary not found: ${binary.wanted} (${binary.source})`);
      this.failed('Graft: not running', missingBinaryMessage(binary));
      void missingBinary(binary);
      return;
    }
    const serverOptions: ServerOptions = {
      command: bin,
      args: ['serve'],
      transport: TransportKind.stdio,
    };
    const clientOptions: LanguageClientOptions = {
      // Files of any language, and unsaved documents of any language:
      // VS Code guesses the language of an untitled document from what
      // is pasted in (an answer full of Go reads as Go), and the server
      // reads one that is no file as a possible answer whatever its
      // language. Not the extension's own graft: documents.
      documentSelector: [{ scheme: 'file' }, { scheme: 'untitled' }],
      outputChannel: this.output,
      initializationOptions: {
        threshold: config.get<number>('threshold', 0.8),
        logLevel: config.get<string>('logLevel', 'info'),
      },
      middleware: {
        // The server's code actions and lenses run its commands through
        // the client: show their results as the extension's commands do.
        executeCommand: async (command, args, next) => {
          const res = await next(command, args);
          await this.shown(command, res).catch((err) => this.fail('Report', err));
          this.hunks.schedule();
          return res;
        },
      },
    };
    const client = new LanguageClient('graft', 'Graft', serverOptions, clientOptions);
    this.client = client;
    // Registered before start, it takes the place of the client's own
    // handler, on every start.
    client.onRequest(ApplyWorkspaceEditRequest.type, (params) => this.applyEdit(client, params));
    try {
      await client.start();
      this.output.appendLine(`started ${bin} serve (${fromWhere[binary.source]})`);
      this.hunks.schedule();
    } catch (err) {
      this.client = undefined;
      this.output.appendLine(`starting ${bin} serve: ${String(err)}`);
      void vscode.window.showErrorMessage(
        `Graft: \`${bin} serve\` did not start (${String(err)}). Check that \`${bin} serve\` runs (\`${bin} version\`), or set "graft.path"; the Graft output has the log.`,
      );
    }
  }

  /** stop stops the server. */
  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) {
      // dispose, not just stop: it also unregisters the server's commands.
      await client.dispose().catch(() => undefined);
    }
  }

  dispose(): void {
    void this.stop();
    for (const d of this.disposables) {
      d.dispose();
    }
  }

  private async applyClipboard(): Promise<void> {
    const text = await clipboardText();
    if (text === undefined) {
      return;
    }
    await this.apply({ text, uri: targetUri() }, 'clipboard');
  }

  private async applySelection(): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    const text = editor?.selections.map((s) => editor.document.getText(s)).join('\n') ?? '';
    if (!text.trim()) {
      void vscode.window.showWarningMessage('Graft: select the edit blocks to apply (an agent\'s answer) first.');
      return;
    }
    // The selection is the answer, not the target: blocks must name their files.
    await this.apply({ text }, 'selection');
  }

  private async apply(args: { text: string; uri?: string }, source: AnswerSource): Promise<void> {
    const res = await this.execute<ApplyResult>('graft.apply', args, source);
    this.report('Apply', res);
  }

  private async previewClipboard(): Promise<void> {
    const text = await clipboardText();
    if (text === undefined) {
      return;
    }
    const res = await this.execute<PreviewResult>('graft.preview', { text, uri: targetUri() }, 'clipboard');
    this.report('Preview', res);
    const opened = await this.openPreview(res.edit);
    if (opened === 0) {
      void vscode.window.showInformationMessage(`${summarize(res)}: nothing would change.`, 'Show Report').then((pick) => {
        if (pick) {
          void this.showReport();
        }
      });
    }
  }

  private async suggestClipboard(): Promise<void> {
    const text = await clipboardText();
    if (text === undefined) {
      return;
    }
    const res = await this.execute<SuggestResult>('graft.suggest', { text, uri: targetUri() }, 'clipboard');
    this.report('Suggest', res);
    await this.hunks.refresh();
  }

  /**
   * applyEdit applies a workspace/applyEdit of the server's, one of its
   * commands' or an agent's answer sent through the editor link (its label
   * opens with agentLabel), as the language client does (one at a time;
   * refused when a document it was made for has changed since), except
   * that a file it creates is made holding its text (withContents): VS
   * Code makes a created file on disk at once, and would make it empty,
   * its text in an unsaved buffer.
   */
  private applyEdit(client: LanguageClient, params: ApplyWorkspaceEditParams): Promise<ApplyWorkspaceEditResult> {
    const run = async (): Promise<ApplyWorkspaceEditResult> => {
      const { edit, filled } = withContents(params.edit as WireWorkspaceEdit);
      const open = new Map(vscode.workspace.textDocuments.map((d) => [d.uri.toString(), d]));
      for (const c of edit.documentChanges ?? []) {
        if ('textDocument' in c && typeof c.textDocument.version === 'number') {
          const doc = open.get(client.protocol2CodeConverter.asUri(c.textDocument.uri).toString());
          if (doc && doc.version !== c.textDocument.version) {
            return { applied: false };
          }
        }
      }
      const converted = await client.protocol2CodeConverter.asWorkspaceEdit(edit as ApplyWorkspaceEditParams['edit']);
      const applied = await vscode.workspace.applyEdit(converted);
      if (applied && params.label?.startsWith(agentLabel)) {
        // An agent's answer, through the editor link: no command of the
        // person's made it, and the status bar says whose it is.
        this.status.text = "Graft: an agent's edit";
        this.status.tooltip = `${params.label}, applied to the buffers (unsaved; undo takes it back)`;
        this.status.backgroundColor = undefined;
        this.status.show();
      }
      if (applied) {
        // A new file is on disk, where the server does not look: open
        // it (no editor), so that the server reads what it holds, as it
        // reads the buffers of the files it changed.
        for (const uri of filled) {
          await vscode.workspace.openTextDocument(client.protocol2CodeConverter.asUri(uri)).then(undefined, () => undefined);
        }
      }
      return { applied };
    };
    const done = this.edits.then(run, run);
    this.edits = done.catch(() => undefined);
    return done;
  }

  /** request runs one of the server's commands, or rejects when no server runs. */
  private async request(command: string, args: object): Promise<unknown> {
    const client = this.client;
    if (!client || !client.isRunning()) {
      throw new Error('the graft server is not running: the Graft output says why.');
    }
    return client.sendRequest(ExecuteCommandRequest.type, { command, arguments: [args] });
  }

  /**
   * execute runs one of the server's commands on an answer taken from
   * source; its error says what the person can do.
   */
  private async execute<T>(command: string, args: object, source: AnswerSource): Promise<T> {
    const client = this.client;
    if (!client || !client.isRunning()) {
      throw new Error('the graft server is not running: the Graft output says why.');
    }
    try {
      return (await client.sendRequest(ExecuteCommandRequest.type, { command, arguments: [args] })) as T;
    } catch (err) {
      throw new Error(explainError(err instanceof Error ? err.message : String(err), source));
    }
  }

  /** shown shows the reply of a server command run from a code action or a lens. */
  private async shown(command: string, res: unknown): Promise<void> {
    if (!res || typeof res !== 'object') {
      return;
    }
    switch (command) {
      case 'graft.apply':
      case 'graft.applySuggestion':
        this.report('Apply', res as ApplyResult);
        break;
      case 'graft.preview':
        this.report('Preview', res as PreviewResult);
        await this.openPreview((res as PreviewResult).edit);
        break;
      case 'graft.suggest':
        this.report('Suggest', res as SuggestResult);
        break;
    }
  }

  /** report keeps a result as the last report and shows it in the status bar. */
  private report(title: string, res: ApplyResult | PreviewResult | SuggestResult): void {
    this.lastReport = formatReport(title, res);
    this.output.appendLine(this.lastReport);
    this.status.text = summarize(res);
    this.status.tooltip = 'Graft: show the last report';
    this.status.backgroundColor = undefined;
    this.status.show();
  }

  /**
   * failed shows in the status bar that the last command did nothing, and
   * keeps its message as the last report, so that neither says what an
   * earlier command did.
   */
  private failed(text: string, message: string): void {
    this.lastReport = `# ${text.replace(/^Graft: /, '')}\n\n${message}\n`;
    this.status.text = text;
    this.status.tooltip = message;
    this.status.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
    this.status.show();
  }

  private async showReport(): Promise<void> {
    if (!this.lastReport) {
      void vscode.window.showInformationMessage('Graft: no report yet: apply, preview or suggest edit blocks first.');
      return;
    }
    const uri = this.docs.put('/Graft Report.md', this.lastReport);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: true });
  }

  /**
   * openPreview opens a diff editor per file the edit changes: on the
   * left the file as it is now (its buffer), on the right a read-only
   * document with the edit applied. It returns how many it opened.
   */
  private async openPreview(edit: WireWorkspaceEdit): Promise<number> {
    const n = ++this.previews;
    const files = await previewFiles(edit, async (uri) => {
      try {
        return (await vscode.workspace.openTextDocument(vscode.Uri.parse(uri))).getText();
      } catch {
        return undefined;
      }
    });
    for (const f of files) {
      const name = `/${n}/${path.posix.basename(vscode.Uri.parse(f.uri).path)}`;
      const left = f.existing ? vscode.Uri.parse(f.uri) : this.docs.put(`${name} (before)`, f.before);
      const right = this.docs.put(name, f.after);
      const note = f.note ? ` (${f.note.replace(/file:\/\/\S+/g, (u) => displayPath(u))})` : '';
      await vscode.commands.executeCommand('vscode.diff', left, right, `Graft preview: ${displayPath(f.uri)}${note}`, { preview: false });
    }
    return files.length;
  }

  /** fail says that the command title failed, and why. */
  private fail(title: string, err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    this.output.appendLine(`error: ${title}: ${message}`);
    if (title !== 'Report') {
      this.failed(`Graft: ${title.toLowerCase()} failed`, message);
    }
    void vscode.window.showErrorMessage(`Graft: ${message}`);
  }
}

/** VirtualDocuments holds the read-only text of the graft: documents. */
class VirtualDocuments implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  /** put stores text under the path and returns its URI. */
  put(p: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme, path: p });
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }
}

/**
 * displayPath names a file URI relative to the workspace, with its
 * folder's name first only when several folders are open.
 */
function displayPath(uri: string): string {
  return vscode.workspace.asRelativePath(vscode.Uri.parse(uri));
}

/** targetUri is the file of the active editor, the target of blocks that name no file. */
function targetUri(): string | undefined {
  const doc = vscode.window.activeTextEditor?.document;
  return doc && doc.uri.scheme === 'file' ? doc.uri.toString() : undefined;
}

/** clipboardText returns the clipboard, or undefined (having said so) when it is empty. */
async function clipboardText(): Promise<string | undefined> {
  const text = await vscode.env.clipboard.readText();
  if (!text.trim()) {
    void vscode.window.showWarningMessage('Graft: the clipboard is empty: copy an agent\'s answer (its edit blocks) first.');
    return undefined;
  }
  return text;
}

/** missingBinary tells the person how to get the binary. */
async function missingBinary(binary: Binary): Promise<void> {
  const pick = await vscode.window.showErrorMessage(
    missingBinaryMessage(binary),
    'Open Settings',
    'Copy Install Command',
  );
  if (pick === 'Open Settings') {
    await openSetting('graft.path');
  } else if (pick === 'Copy Install Command') {
    await vscode.env.clipboard.writeText(installCommand);
  }
}

/**
 * openSetting opens the Settings editor at a setting of the extension, on
 * the tab where it can be set: in a remote window (Remote - SSH, WSL,
 * code-server) a machine-overridable setting such as graft.path is the
 * remote machine's, on the Remote tab (the User tab finds no such
 * setting there).
 */
async function openSetting(key: string): Promise<void> {
  if (vscode.env.remoteName) {
    await vscode.commands.executeCommand('workbench.action.openRemoteSettings', { query: key });
  } else {
    await vscode.commands.executeCommand('workbench.action.openSettings', key);
  }
}

let graft: Graft | undefined;

/** activate starts the server and registers the commands. */
export async function activate(context: vscode.ExtensionContext): Promise<void> {
  graft = new Graft(context.extensionPath);
  graft.register(context);
  await graft.start();
}

/** deactivate stops the server. */
export async function deactivate(): Promise<void> {
  await graft?.stop();
  graft = undefined;
}
