// Drives the real `graft serve` (GRAFT_BIN) over stdio with
// vscode-languageserver-protocol, as the extension's language client
// (vscode-languageclient 9 in VS Code) does: the same client capabilities,
// buffers synced with didOpen/didChange, workspace/applyEdit applied to the
// buffers (never the disk) after the client's strict version check, and
// the commands the extension sends.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  InitializeRequest,
  InitializedNotification,
  ShutdownRequest,
  ExitNotification,
  ExecuteCommandRequest,
  ApplyWorkspaceEditRequest,
  DidOpenTextDocumentNotification,
  DidChangeTextDocumentNotification,
  PublishDiagnosticsNotification,
  TextDocumentSyncKind,
} = require('vscode-languageserver-protocol/node');
const { TextDocument } = require('vscode-languageserver-textdocument');
// The extension's own preview code, bundled by the Go test (src/preview.ts).
const { previewFiles } = await import('../out/preview.mjs');
const { withContents } = await import('../out/newfiles.mjs');

const bin = process.env.GRAFT_BIN;
if (!bin) {
  throw new Error('GRAFT_BIN must name the graft binary to test');
}

/**
 * The client capabilities vscode-languageclient 9.0.1 sends, as far as
 * the server reads them (vscode-languageclient/lib/common/client.js and
 * its features).
 */
const capabilities = {
  general: {
    staleRequestSupport: { cancel: true, retryOnContentModified: [] },
    regularExpressions: { engine: 'ECMAScript', version: 'ES2020' },
    markdown: { parser: 'marked', version: '1.1.0' },
    positionEncodings: ['utf-16'],
  },
  window: {
    showMessage: { messageActionItem: { additionalPropertiesSupport: true } },
    showDocument: { support: true },
    workDoneProgress: true,
  },
  workspace: {
    applyEdit: true,
    workspaceEdit: {
      documentChanges: true,
      resourceOperations: ['create', 'rename', 'delete'],
      failureHandling: 'textOnlyTransactional',
      normalizesLineEndings: true,
      changeAnnotationSupport: { groupsOnLabel: true },
    },
    didChangeConfiguration: { dynamicRegistration: true },
    didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true },
    executeCommand: { dynamicRegistration: true },
    configuration: true,
    workspaceFolders: true,
    codeLens: { refreshSupport: true },
    diagnostics: { refreshSupport: true },
    semanticTokens: { refreshSupport: true },
    inlayHint: { refreshSupport: true },
    inlineValue: { refreshSupport: true },
    fileOperations: {
      dynamicRegistration: true,
      didCreate: true, willCreate: true, didRename: true, willRename: true, didDelete: true, willDelete: true,
    },
  },
  textDocument: {
    synchronization: { dynamicRegistration: true, willSave: true, willSaveWaitUntil: true, didSave: true },
    publishDiagnostics: {
      relatedInformation: true,
      versionSupport: false,
      tagSupport: { valueSet: [1, 2] },
      codeDescriptionSupport: true,
      dataSupport: true,
    },
    codeAction: {
      dynamicRegistration: true,
      isPreferredSupport: true,
      disabledSupport: true,
      dataSupport: true,
      resolveSupport: { properties: ['edit'] },
      codeActionLiteralSupport: {
        codeActionKind: {
          valueSet: ['', 'quickfix', 'refactor', 'refactor.extract', 'refactor.inline', 'refactor.rewrite', 'source', 'source.organizeImports'],
        },
      },
      honorsChangeAnnotations: false,
    },
    codeLens: { dynamicRegistration: true },
    hover: { dynamicRegistration: true, contentFormat: ['markdown', 'plaintext'] },
  },
};

/**
 * An Editor is what VS Code and vscode-languageclient 9 are to the server:
 * buffers (TextDocument) synced to the server, and the handling of
 * workspace/applyEdit.
 */
class Editor {
  constructor(root) {
    this.root = root;
    this.docs = new Map(); // uri -> TextDocument
    this.applyEdits = []; // every workspace/applyEdit: {params, result}
    this.diagnostics = new Map(); // uri -> Diagnostic[]
    this.messages = [];
    // beforeApply, when set, runs as an applyEdit arrives, before the
    // version check: the person typing while the edit was on its way.
    this.beforeApply = undefined;
  }

  async start() {
    this.proc = spawn(bin, ['serve'], { cwd: this.root, stdio: ['pipe', 'pipe', 'pipe'] });
    this.stderr = '';
    this.proc.stderr.on('data', (d) => { this.stderr += d; });
    this.conn = createProtocolConnection(new StreamMessageReader(this.proc.stdout), new StreamMessageWriter(this.proc.stdin));
    this.conn.onRequest(ApplyWorkspaceEditRequest.type, (params) => this.applyEdit(params));
    this.conn.onRequest((method, params) => {
      // window/workDoneProgress/create, client/registerCapability,
      // workspace/*/refresh: accepted, as VS Code does.
      if (method === 'workspace/configuration') {
        return params.items.map(() => null);
      }
      return null;
    });
    this.conn.onNotification(PublishDiagnosticsNotification.type, (p) => this.diagnostics.set(p.uri, p.diagnostics));
    this.conn.onNotification('window/showMessage', (p) => this.messages.push(p.message));
    this.conn.listen();
    const init = await this.conn.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      clientInfo: { name: 'Visual Studio Code', version: '1.82.0' },
      locale: 'en',
      rootPath: this.root,
      rootUri: uri(this.root),
      capabilities,
      initializationOptions: { threshold: 0.8, logLevel: 'info' },
      trace: 'off',
      workspaceFolders: [{ uri: uri(this.root), name: path.basename(this.root) }],
    });
    await this.conn.sendNotification(InitializedNotification.type, {});
    return init;
  }

  async stop() {
    await this.conn.sendRequest(ShutdownRequest.type);
    await this.conn.sendNotification(ExitNotification.type);
    await new Promise((resolve) => {
      if (this.proc.exitCode !== null) {
        resolve();
      }
      this.proc.on('exit', resolve);
    });
    this.conn.dispose();
  }

  /** open opens a buffer, with text when given (unsaved), else the file's. */
  async open(file, text, languageId = 'plaintext') {
    const u = uri(file);
    const doc = TextDocument.create(u, languageId, 1, text ?? fs.readFileSync(file, 'utf8'));
    this.docs.set(u, doc);
    await this.conn.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: u, languageId, version: doc.version, text: doc.getText() },
    });
    return doc;
  }

  /** change edits a buffer as a person does, and tells the server. */
  async change(u, edits) {
    const doc = this.docs.get(u);
    const sorted = [...edits].sort((a, b) => doc.offsetAt(b.range.start) - doc.offsetAt(a.range.start));
    const changes = sorted.map((e) => ({ range: e.range, text: e.newText }));
    TextDocument.update(doc, changes, doc.version + 1);
    await this.conn.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: u, version: doc.version },
      contentChanges: changes,
    });
  }

  text(file) {
    return this.docs.get(uri(file))?.getText();
  }

  /**
   * applyEdit is vscode-languageclient 9's handling of
   * workspace/applyEdit: a text edit for an open document at another
   * version refuses the whole edit ("strict" version check), else VS
   * Code applies it, loading files that are not open into buffers.
   */
  async applyEdit(params) {
    const record = { params };
    this.applyEdits.push(record);
    if (this.beforeApply) {
      const f = this.beforeApply;
      this.beforeApply = undefined;
      await f();
    }
    const changes = params.edit.documentChanges;
    assert.ok(Array.isArray(changes), 'a client with documentChanges gets documentChanges');
    for (const c of changes) {
      if (!('kind' in c) && c.textDocument.version !== null) {
        const doc = this.docs.get(c.textDocument.uri);
        if (doc && doc.version !== c.textDocument.version) {
          record.result = {
            applied: false,
            failureReason: `Version ${c.textDocument.version} of ${c.textDocument.uri} does not match the open document's version ${doc.version}`,
          };
          return record.result;
        }
      }
    }
    for (const c of changes) {
      if ('kind' in c) {
        record.result = { applied: false, failureReason: `this test client does not expect a ${c.kind} operation` };
        return record.result;
      }
      if (!this.docs.has(c.textDocument.uri)) {
        await this.open(new URL(c.textDocument.uri).pathname);
      }
      await this.change(c.textDocument.uri, c.edits);
    }
    record.result = { applied: true };
    return record.result;
  }

  /** execute runs a command as the extension does. */
  execute(command, args) {
    return this.conn.sendRequest(ExecuteCommandRequest.type, { command, arguments: [args] });
  }
}

function uri(file) {
  return pathToFileURL(file).href;
}

let root;
let editor;
let init;

before(async () => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'graft-vscode-')));
  fs.mkdirSync(path.join(root, '.git'));
  editor = new Editor(root);
  init = await editor.start();
});

after(async () => {
  await editor?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

/** write makes a file on disk and returns its path. */
function write(name, text) {
  const file = path.join(root, name);
  fs.writeFileSync(file, text);
  return file;
}

/** block is a SEARCH/REPLACE block, naming its file when name is given. */
function block(name, search, replace) {
  const body = `<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE\n`;
  return name ? `${name}\n\`\`\`\n${body}\`\`\`\n` : body;
}

test('initialize: the server speaks UTF-16 and offers the commands the extension sends', () => {
  const caps = init.capabilities;
  assert.equal(caps.positionEncoding ?? 'utf-16', 'utf-16');
  for (const c of ['graft.apply', 'graft.preview', 'graft.suggest']) {
    assert.ok(caps.executeCommandProvider.commands.includes(c), `executeCommandProvider lists ${c}`);
  }
  assert.equal(
    typeof caps.textDocumentSync === 'object' ? caps.textDocumentSync.change : caps.textDocumentSync,
    TextDocumentSyncKind.Incremental,
  );
  assert.ok(caps.codeActionProvider, 'code actions');
  assert.ok(caps.codeLensProvider, 'code lenses');
});

test('graft.apply with text: edits the unsaved buffer, not the disk', async () => {
  const disk = 'package a\n\nfunc f() int {\n\treturn 1\n}\n';
  const file = write('a.go', disk);
  const unsaved = 'package a\n\n// unsaved comment\nfunc f() int {\n\treturn 1\n}\n';
  await editor.open(file, unsaved, 'go');
  const n = editor.applyEdits.length;
  const res = await editor.execute('graft.apply', { text: block('a.go', '\treturn 1', '\treturn 2') });
  assert.equal(res.applied, true, JSON.stringify(res));
  assert.equal(res.blocks.length, 1);
  assert.equal(res.blocks[0].status, 'applied');
  assert.equal(res.blocks[0].uri, uri(file));
  assert.equal(res.blocks[0].range.start.line, 4, 'the block landed on the unsaved buffer\'s line 5');
  assert.equal(editor.applyEdits.length, n + 1, 'one workspace/applyEdit');
  const sent = editor.applyEdits[n].params.edit.documentChanges;
  assert.equal(sent.length, 1);
  assert.equal(sent[0].textDocument.version, 1, 'the edit names the buffer\'s version');
  assert.equal(editor.text(file), 'package a\n\n// unsaved comment\nfunc f() int {\n\treturn 2\n}\n');
  assert.equal(fs.readFileSync(file, 'utf8'), disk, 'the disk is untouched');
});

test('graft.apply with uri: a block naming no file goes to the uri, UTF-16 positions after emoji', async () => {
  // The last line has no newline, so the edit ends inside it, after the
  // emoji: at its length in UTF-16 code units (17), not in bytes (23).
  const last = 'const face = "😀🎉"; let x = 1; // ✓';
  const disk = '// 🙂 first\n' + last;
  const file = write('emoji.ts', disk);
  await editor.open(file, undefined, 'typescript');
  const n = editor.applyEdits.length;
  const res = await editor.execute('graft.apply', {
    text: block('', last, 'const face = "😀🎉"; let x = 42; // ✓'),
    uri: uri(file),
  });
  assert.equal(res.applied, true, JSON.stringify(res));
  assert.equal(res.blocks[0].status, 'applied');
  assert.equal(res.blocks[0].uri, uri(file));
  const edits = editor.applyEdits[n].params.edit.documentChanges[0].edits;
  assert.equal(edits.length, 1, JSON.stringify(edits));
  assert.deepEqual(edits[0].range.start, { line: 1, character: 0 });
  assert.notEqual(last.length, Buffer.byteLength(last));
  assert.deepEqual(edits[0].range.end, { line: 1, character: last.length }, 'the end counts UTF-16 code units');
  assert.equal(editor.text(file), '// 🙂 first\nconst face = "😀🎉"; let x = 42; // ✓');
  assert.equal(fs.readFileSync(file, 'utf8'), disk);
});

test('graft.apply: a file that is not open is loaded into a buffer and edited there', async () => {
  const disk = 'one\ntwo\nthree\n';
  const file = write('closed.txt', disk);
  assert.equal(editor.text(file), undefined);
  const res = await editor.execute('graft.apply', { text: block('closed.txt', 'two', 'TWO') });
  assert.equal(res.applied, true, JSON.stringify(res));
  assert.equal(editor.text(file), 'one\nTWO\nthree\n');
  assert.equal(fs.readFileSync(file, 'utf8'), disk, 'nothing written behind the editor\'s back');
});

test('graft.apply: a failing block is refused with its reason, the others apply', async () => {
  const file = write('mixed.py', 'def f():\n    return "a"\n\ndef g():\n    return "b"\n');
  await editor.open(file, undefined, 'python');
  const text = block('mixed.py', '    return "a"', '    return "A"') + '\n' + block('mixed.py', '    return "zzz nowhere"', '    return "Z"');
  const res = await editor.execute('graft.apply', { text });
  assert.deepEqual(res.blocks.map((b) => b.status), ['applied', 'failed']);
  assert.ok(res.blocks[1].message.length > 0, 'the refusal says why');
  assert.equal(editor.text(file), 'def f():\n    return "A"\n\ndef g():\n    return "b"\n');
});

test('graft.apply: an edit for a stale version is refused by the client and reported as not applied', async () => {
  const disk = 'alpha\nbeta\ngamma\n';
  const file = write('stale.txt', disk);
  const doc = await editor.open(file, undefined, 'plaintext');
  const u = uri(file);
  // The person types at the end of the file while the edit is on its way.
  editor.beforeApply = () => editor.change(u, [{ range: { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } }, newText: 'typed\n' }]);
  const n = editor.applyEdits.length;
  const res = await editor.execute('graft.apply', { text: block('stale.txt', 'beta', 'BETA') });
  const rec = editor.applyEdits[n];
  assert.equal(rec.params.edit.documentChanges[0].textDocument.version, 1);
  assert.equal(rec.result.applied, false, 'the client refused the stale edit');
  assert.equal(res.applied, false, JSON.stringify(res));
  assert.match(res.failureReason, /Version 1/);
  assert.equal(res.blocks[0].status, 'failed');
  assert.match(res.blocks[0].message, /not applied/);
  assert.equal(doc.version, 2);
  assert.equal(editor.text(file), 'alpha\nbeta\ngamma\ntyped\n', 'only the person\'s typing');
  assert.equal(fs.readFileSync(file, 'utf8'), disk);
  // Asked again, the server resolves against the new version.
  const again = await editor.execute('graft.apply', { text: block('stale.txt', 'beta', 'BETA') });
  assert.equal(again.applied, true, JSON.stringify(again));
  assert.equal(editor.applyEdits[n + 1].params.edit.documentChanges[0].textDocument.version, 2);
  assert.equal(editor.text(file), 'alpha\nBETA\ngamma\ntyped\n');
});

test('graft.preview: changes nothing; its edit, applied as the extension\'s diff view does, gives the result', async () => {
  const disk = 'x = "🙂"; y = 1\nz = 3\n';
  const file = write('preview.py', disk);
  const unsaved = '# unsaved\n' + disk;
  await editor.open(file, unsaved, 'python');
  const n = editor.applyEdits.length;
  const res = await editor.execute('graft.preview', { text: block('', 'x = "🙂"; y = 1', 'x = "🙂"; y = 2'), uri: uri(file) });
  assert.equal(editor.applyEdits.length, n, 'no workspace/applyEdit');
  assert.equal(editor.text(file), unsaved, 'the buffer is unchanged');
  assert.equal(fs.readFileSync(file, 'utf8'), disk);
  assert.equal(res.blocks[0].status, 'applied');
  assert.match(res.diff, /-x = "🙂"; y = 1\n\+x = "🙂"; y = 2/);
  // What the extension's diff editor shows: the buffer, and after the edit.
  const files = await previewFiles(res.edit, async (u) => editor.docs.get(u)?.getText());
  assert.deepEqual(files, [{ uri: uri(file), existing: true, before: unsaved, after: '# unsaved\nx = "🙂"; y = 2\nz = 3\n' }]);
});

test('graft.preview: a file the blocks create and one they change, as the diff editors show them', async () => {
  const file = write('kept.txt', 'keep\nold\n');
  const text = block('kept.txt', 'old', 'new') + '\n' + 'fresh.txt\n```\n<<<<<<< SEARCH\n=======\nborn\n>>>>>>> REPLACE\n```\n';
  const res = await editor.execute('graft.preview', { text });
  assert.deepEqual(res.blocks.map((b) => b.status), ['applied', 'applied'], JSON.stringify(res.blocks));
  const files = await previewFiles(res.edit, async (u) => editor.docs.get(u)?.getText() ?? (fs.existsSync(new URL(u)) ? fs.readFileSync(new URL(u), 'utf8') : undefined));
  const byUri = (a, b) => (a.uri < b.uri ? -1 : 1);
  assert.deepEqual(files.sort(byUri), [
    { uri: uri(path.join(root, 'fresh.txt')), existing: false, before: '', after: 'born\n', note: 'created' },
    { uri: uri(file), existing: true, before: 'keep\nold\n', after: 'keep\nnew\n' },
  ].sort(byUri));
  assert.equal(fs.existsSync(path.join(root, 'fresh.txt')), false, 'a preview creates nothing');
  // Applied, the new file is made holding its text: one CreateFile, with
  // the text as its contents and no text edit after it; the other file's
  // edit as it was.
  const { edit, filled } = withContents(res.edit);
  const fresh = uri(path.join(root, 'fresh.txt'));
  assert.deepEqual(filled, [fresh]);
  const creates = edit.documentChanges.filter((c) => c.kind === 'create');
  assert.equal(creates.length, 1, JSON.stringify(edit.documentChanges));
  assert.equal(creates[0].uri, fresh);
  assert.equal(new TextDecoder().decode(creates[0].options.contents), 'born\n');
  assert.ok(!edit.documentChanges.some((c) => c.textDocument?.uri === fresh), JSON.stringify(edit.documentChanges));
  assert.deepEqual(edit.documentChanges.filter((c) => c.textDocument), res.edit.documentChanges.filter((c) => c.textDocument && c.textDocument.uri !== fresh));
  assert.ok(res.edit.documentChanges.some((c) => c.textDocument?.uri === fresh), 'the reply itself is left as it was');
});

test('answer buffer: diagnostics, code actions and lenses, and the code action applies its block', async () => {
  const target = write('target.js', 'let a = "🎈";\nlet b = 1;\n');
  await editor.open(target, undefined, 'javascript');
  const answerFile = path.join(root, 'answer.md');
  const answer = 'Here is the fix 🎈:\n\n' + block('target.js', 'let b = 1;', 'let b = 2;') + '\nAnd one that fails:\n\n' + block('target.js', 'let zz = 9;', 'let zz = 10;');
  await editor.open(answerFile, answer, 'markdown');
  const u = uri(answerFile);
  for (let i = 0; i < 100 && (editor.diagnostics.get(u) ?? []).length < 2; i++) {
    await new Promise((r) => setTimeout(r, 20));
  }
  const diags = editor.diagnostics.get(u) ?? [];
  assert.equal(diags.length, 2, JSON.stringify(diags));
  const severities = diags.map((d) => d.severity).sort();
  assert.deepEqual(severities, [1, 4], 'an error for the failing block, a hint for the exact one');
  const lenses = await editor.conn.sendRequest('textDocument/codeLens', { textDocument: { uri: u } });
  assert.ok(lenses.some((l) => l.command?.command === 'graft.apply'), JSON.stringify(lenses));
  // The lightbulb on the first block: VS Code asks for the actions at the
  // cursor, with the diagnostics there.
  const hint = diags.find((d) => d.severity === 4);
  assert.ok(hint.range.start.line >= 2 && hint.range.start.line < 10, JSON.stringify(hint.range));
  const actions = await editor.conn.sendRequest('textDocument/codeAction', {
    textDocument: { uri: u },
    range: { start: hint.range.start, end: hint.range.start },
    context: { diagnostics: [hint], triggerKind: 1 },
  });
  const apply = actions.find((a) => a.title === 'Apply edit block → target.js');
  assert.ok(apply, JSON.stringify(actions.map((a) => a.title)));
  // The language client runs a code action's command with
  // workspace/executeCommand, exactly as given.
  const res = await editor.execute(apply.command.command, ...apply.command.arguments);
  assert.equal(res.applied, true, JSON.stringify(res));
  assert.equal(editor.text(target), 'let a = "🎈";\nlet b = 2;\n');
  assert.equal(editor.text(answerFile), answer, 'the answer is untouched');
});

test('graft.suggest: applies nothing and shows the suggestion as a diagnostic in the target', async () => {
  const disk = 'fn main() {\n    println!("hi");\n}\n';
  const file = write('main.rs', disk);
  await editor.open(file, undefined, 'rust');
  const n = editor.applyEdits.length;
  const res = await editor.execute('graft.suggest', { text: block('main.rs', '    println!("hi");', '    println!("hello");') });
  assert.equal(editor.applyEdits.length, n, 'no workspace/applyEdit');
  assert.equal(editor.text(file), disk);
  assert.equal(res.blocks[0].status, 'applied', JSON.stringify(res));
  assert.equal(res.suggestions.length, 1);
  assert.equal(res.suggestions[0].uri, uri(file));
  // The diagnostic arrives as a notification; wait for it, bounded.
  for (let i = 0; i < 100 && !(editor.diagnostics.get(uri(file)) ?? []).length; i++) {
    await new Promise((r) => setTimeout(r, 20));
  }
  const diags = editor.diagnostics.get(uri(file)) ?? [];
  assert.equal(diags.length, 1, JSON.stringify(diags));
  assert.equal(diags[0].range.start.line, 1);
  // The suggestion's code action applies it through workspace/applyEdit,
  // as the language client runs a code action's command.
  const applied = await editor.execute('graft.applySuggestion', { uri: uri(file), id: res.suggestions[0].id });
  assert.equal(applied.applied, true, JSON.stringify(applied));
  assert.equal(editor.text(file), 'fn main() {\n    println!("hello");\n}\n');
  assert.equal(fs.readFileSync(file, 'utf8'), disk);
});

test('an unsaved Markdown answer (untitled:) gets its diagnostics, and its code action applies', async () => {
  const target = write('untitled-target.txt', 'red\ngreen\n');
  const u = 'untitled:Untitled-1';
  const answer = block('untitled-target.txt', 'green', 'blue');
  const doc = TextDocument.create(u, 'markdown', 1, answer);
  editor.docs.set(u, doc);
  await editor.conn.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri: u, languageId: 'markdown', version: 1, text: answer },
  });
  for (let i = 0; i < 100 && !(editor.diagnostics.get(u) ?? []).length; i++) {
    await new Promise((r) => setTimeout(r, 20));
  }
  const diags = editor.diagnostics.get(u) ?? [];
  assert.equal(diags.length, 1, JSON.stringify(diags));
  const actions = await editor.conn.sendRequest('textDocument/codeAction', {
    textDocument: { uri: u },
    range: { start: diags[0].range.start, end: diags[0].range.start },
    context: { diagnostics: diags, triggerKind: 1 },
  });
  const apply = actions.find((a) => a.title === 'Apply edit block → untitled-target.txt');
  assert.ok(apply, JSON.stringify(actions.map((a) => a.title)));
  const res = await editor.execute(apply.command.command, ...apply.command.arguments);
  assert.equal(res.applied, true, JSON.stringify(res));
  assert.equal(editor.text(target), 'red\nblue\n');
  assert.equal(fs.readFileSync(target, 'utf8'), 'red\ngreen\n');
});
