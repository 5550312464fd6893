// Drives the Graft extension in a real VS Code (code-server, served to
// headless Chromium) as a person does: keys, the command palette, the
// Problems panel, the lightbulb. It reads what the editor holds by
// selecting all and copying, never from the extension's messages. The Go
// test TestCodeServer (../e2e_test.go) prepares the workspace, starts
// code-server and runs this script with:
//
//   GRAFT_E2E_URL        the workbench's address
//   GRAFT_E2E_WORKSPACE  the workspace folder code-server opened
//   GRAFT_E2E_OUT        the folder for the screenshots, one per step
//   GRAFT_E2E_CHROMIUM   the Chromium binary
//   GRAFT_E2E_USER_DATA  code-server's user data folder (its Machine/
//                        settings.json holds the Remote tab's settings)
//   GRAFT_E2E_GRAFT      a graft binary, for an agent's graft apply
//                        (GRAFT_EDITOR_DIR is where the extension's graft
//                        serve listens for it)
//
// Each step logs "ok N name"; a failing one saves fail-<name>.png and the
// page's notifications, and the script exits 1.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium } from 'playwright-core';

const url = env('GRAFT_E2E_URL');
const workspace = env('GRAFT_E2E_WORKSPACE');
const out = env('GRAFT_E2E_OUT');
const chromiumPath = env('GRAFT_E2E_CHROMIUM');
const userData = env('GRAFT_E2E_USER_DATA');
const graft = env('GRAFT_E2E_GRAFT');

/** The bound of every wait: generous, for two busy cores. */
const timeout = 60_000;

const target = 'src/greet.py';
const disk = fs.readFileSync(path.join(workspace, target), 'utf8');
const unsaved = '# unsaved note\n' + disk;
const applied = unsaved.replace('    return "hello"\n', '    return "hello, " + name\n');
assert.notEqual(applied, unsaved, 'the answer\'s first block matches the target');

const browser = await chromium.launch({
  executablePath: chromiumPath,
  headless: true,
  args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
});
const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
// As a person allows a site to use the clipboard: VS Code's web
// clipboard is the browser's.
await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin });
context.setDefaultTimeout(timeout);
// The page notes when and where the focus goes, for editorFocused and
// editorState.
await context.addInitScript(() => {
  const log = (window.__graftFocus = []);
  const name = (el) => (el?.closest?.('.monaco-editor') ? 'editor' : el?.closest?.('.quick-input-widget') ? 'quick input' : `${el?.tagName ?? 'window'}.${el?.className ?? ''}`.slice(0, 60));
  for (const type of ['focusin', 'focusout']) {
    document.addEventListener(type, (e) => {
      window.__graftFocusAt = Date.now();
      log.push(`${new Date().toISOString().slice(11, 23)} ${type} ${name(e.target)}`);
      log.splice(0, log.length - 12);
    }, true);
  }
});
const page = await context.newPage();
const consoleErrors = [];
page.on('console', (m) => {
  if (m.type() === 'error') {
    consoleErrors.push(m.text().split('\n')[0]);
  }
});

let stepNo = 0;

/** step runs one step, then screenshots it; a failure ends the run. */
async function step(name, fn) {
  stepNo++;
  const shot = `${String(stepNo).padStart(2, '0')}-${name}.png`;
  const start = Date.now();
  try {
    await fn();
    await page.screenshot({ path: path.join(out, shot) });
    console.log(`ok ${stepNo} ${name} (${Date.now() - start} ms, from ${new Date(start).toISOString()}) ${shot}`);
  } catch (err) {
    console.log(`FAIL ${stepNo} ${name} (${Date.now() - start} ms, from ${new Date(start).toISOString()}): ${err.stack ?? err}`);
    await page.screenshot({ path: path.join(out, `fail-${name}.png`) }).catch(() => undefined);
    const notes = await page.locator('.notification-list-item').allInnerTexts().catch(() => []);
    console.log(`notifications: ${JSON.stringify(notes)}`);
    console.log(`browser console errors (last 10): ${JSON.stringify(consoleErrors.slice(-10))}`);
    await browser.close().catch(() => undefined);
    process.exit(1);
  }
}

/**
 * until polls probe until ok holds for what it returns, and returns that;
 * past the bound it fails with the last value it saw.
 */
async function until(what, probe, ok, ms = timeout) {
  const end = Date.now() + ms;
  let last;
  for (;;) {
    try {
      last = await probe();
      if (ok(last)) {
        return last;
      }
    } catch (err) {
      last = err;
    }
    if (Date.now() > end) {
      throw new Error(`timed out waiting for ${what}; last saw: ${last instanceof Error ? last.message : JSON.stringify(last)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** quickInput waits for the quick input box (palette, quick open) to show. */
async function quickInput() {
  await page.locator('.quick-input-widget input').waitFor({ state: 'visible' });
}

/** open opens a workspace file with Quick Open (Ctrl+P), and waits for its editor to have the focus. */
async function open(file) {
  const name = path.posix.basename(file);
  await page.keyboard.press('Control+P');
  await quickInput();
  await page.keyboard.type(file);
  // Quick Open first lists recent files: wait for the match to be the pick.
  await page.locator(`.quick-input-list .monaco-list-row.focused[aria-label^="${name}"]`).waitFor();
  await page.keyboard.press('Enter');
  await page.locator(`.tab.active[aria-label^="${name}"]`).waitFor();
  await editorFocused();
}

/**
 * editorFocused waits for the keyboard focus to be in the active editor,
 * the quick input closed, and to stay there: closing the quick input
 * moves the focus out of the editor and back within some 20 ms (keys
 * pressed then are lost), which a loaded machine can stretch.
 */
async function editorFocused() {
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  await page.waitForFunction(() => document.activeElement?.closest('.editor-group-container.active .monaco-editor') != null &&
    Date.now() - (window.__graftFocusAt ?? 0) > 150);
}

/** command runs a command from the palette (F1) by its title, as a person types it. */
async function command(title, shot) {
  await page.keyboard.press('F1');
  await quickInput();
  await page.keyboard.type(title);
  await page.locator(`.quick-input-list .monaco-list-row.focused[aria-label*="${title}"]`).waitFor();
  if (shot) {
    await page.screenshot({ path: path.join(out, shot) });
  }
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
}

/**
 * editorText returns the text of the focused editor as the editor holds
 * it: select all, copy, read the clipboard; then it puts the cursor at the
 * start again.
 */
async function editorText() {
  await page.evaluate(() => navigator.clipboard.writeText(''));
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Control+C');
  const text = await until('the copied text', () => page.evaluate(() => navigator.clipboard.readText()), (t) => t !== '');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+Home');
  return text;
}

/** expectText waits until the focused editor holds want. */
async function expectText(want, what) {
  try {
    await until(what, editorText, (t) => t === want, timeout / 2);
  } catch (err) {
    // The assertion shows the difference.
    assert.equal(await editorText(), want, `${what}: ${err.message}`);
  }
}

/** expectStatus waits until the extension's status bar item reads want. */
async function expectStatus(want) {
  await until(`the status bar to read "${want}"`, statusText, (t) => t === want);
}

/**
 * shownText returns the lines an editor shows (a diff editor's side, a
 * read-only document), in order, with Monaco's non-breaking spaces as
 * spaces.
 */
async function shownText(editor) {
  return editor.locator('.view-line').evaluateAll((lines) => lines
    .map((l) => [parseFloat(l.style.top), l.textContent.replace(/\u00a0/g, ' ')])
    .sort((a, b) => a[0] - b[0])
    .map((l) => l[1])
    .join('\n'));
}

/** statusText is the text of the extension's status bar item. */
async function statusText() {
  return page.locator('.statusbar-item[id$=".graft.status"]').innerText();
}

/** problems returns the rows of the Problems panel, as their aria labels. */
async function problems() {
  return page.locator('.markers-panel .monaco-list-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label') ?? r.textContent));
}

/**
 * lightbulb puts the cursor at the start of line (VS Code asks for code
 * actions where the cursor touches text), waits for the lightbulb to
 * show beside that line (or the next, where it has room) once the server answered (not the one of where
 * the cursor was before), opens its menu and waits for title in it.
 */
// lightbulb opens the code actions of line lineNo by its lightbulb and
// waits for title among them. With orKeys, when no lightbulb has shown 8
// s after the cursor came, it opens them with Ctrl+. as a person then
// does: the steps that apply blocks test the actions, the step named
// "lightbulb" the bulb itself. (VS Code 1.100 at times keeps the bulb
// hidden on a line whose neighbours leave it no room, though the server
// answered with actions, the editor has the focus, and the cursor moved
// off and back several times: seen once in about 40 runs.)
async function lightbulb(lineNo, title, { orKeys = false } = {}) {
  // With the arrow keys, the focus in the editor all along: closing Go to
  // Line's box (Ctrl+G) takes the focus from the editor for a moment, and
  // VS Code shows no lightbulb for an answer that comes while the editor
  // has not the focus (lightBulbWidget.ts), nor asks again until the
  // cursor moves.
  const goTo = async (n) => {
    await page.keyboard.press('Control+Home');
    for (let i = 1; i < n; i++) {
      await page.keyboard.press('ArrowDown');
    }
    await page.locator('.statusbar-item[id="status.editor.selection"]', { hasText: new RegExp(`^Ln ${n}, Col 1$`) }).waitFor();
  };
  await goTo(lineNo);
  // Where the cursor's line leaves no room beside its text, VS Code
  // shows the lightbulb in the gutter instead (a glyph margin decoration).
  const bulb = page.locator('.editor-group-container.active')
    .locator('.lightBulbWidget:visible, [class*="codicon-gutter-lightbulb"]:visible').first();
  const line = page.locator('.editor-group-container.active .line-numbers', { hasText: new RegExp(`^${lineNo}$`) });
  // In 3 runs of about 30 on a loaded machine, moving with Go to Line, the
  // lightbulb never came: VS Code had asked for line 14 and been answered
  // in 1 ms, then asked nothing more for a minute (taking the focus away
  // while it asks does exactly that). Should the focus go elsewhere all
  // the same, the test moves the cursor to the line above and back, as a
  // person would (to the line below from line 1), every 8 seconds: VS
  // Code asks again when the cursor moves. Each probe waits a second at
  // most.
  let moved = Date.now();
  let keys = false;
  await until(`the lightbulb on line ${lineNo}`, async () => {
    const [b, l] = [await bulb.boundingBox({ timeout: 1000 }).catch(() => null), await line.boundingBox({ timeout: 1000 }).catch(() => null)];
    const near = b && l && Math.abs(b.y + b.height / 2 - (l.y + l.height / 2)) < l.height;
    if (!near && orKeys && Date.now() - moved > 8000) {
      console.log(`${new Date().toISOString()} no lightbulb on line ${lineNo} 8 s after the cursor came there: ${JSON.stringify(await editorState())}; pressing Ctrl+.`);
      keys = true;
      return true;
    }
    if (!near && Date.now() - moved > 8000) {
      const other = lineNo > 1 ? lineNo - 1 : lineNo + 1;
      console.log(`${new Date().toISOString()} no lightbulb on line ${lineNo} 8 s after the cursor came there: ${JSON.stringify(await editorState())}; moving the cursor to line ${other} and back`);
      await goTo(other);
      await goTo(lineNo);
      moved = Date.now();
    }
    return near;
  }, (near) => near);
  if (keys) {
    await page.keyboard.press('Control+Period');
  } else {
    await bulb.click();
  }
  await until(`"${title}" in the lightbulb's menu`,
    () => page.locator('.action-widget .monaco-list-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label') ?? r.textContent)),
    (offered) => offered.some((t) => t && t.includes(title)));
}

/**
 * editorState says what the active editor shows of the code actions, for
 * the log: where the focus and the cursor are, the lightbulbs drawn (as a
 * widget beside the text, or in the gutter), and the last moves of the
 * focus.
 */
async function editorState() {
  return page.evaluate(() => {
    const ed = document.querySelector('.editor-group-container.active .monaco-editor');
    const active = document.activeElement;
    return {
      focus: active?.closest('.monaco-editor') === ed ? 'editor' : `${active?.tagName}.${active?.className}`,
      cursor: document.querySelector('.statusbar-item[id="status.editor.selection"]')?.textContent,
      widgets: [...(ed?.querySelectorAll('.lightBulbWidget') ?? [])].map((d) => `${d.className} top=${d.style.top} visibility=${d.style.visibility}`),
      gutter: [...(ed?.querySelectorAll('[class*="codicon-gutter-lightbulb"]') ?? [])].map((d) => `top=${d.style.top || d.parentElement?.style.top}`),
      focusChanges: window.__graftFocus ?? [],
    };
  });
}

/** chooseAction goes down the lightbulb's menu to want and runs it with Enter, as the menu says ("Enter to Apply"). */
async function chooseAction(want) {
  const focused = page.locator('.action-widget .monaco-list-row.focused');
  for (let i = 0; i < 8 && (await focused.getAttribute('aria-label')) !== want; i++) {
    await page.keyboard.press('ArrowDown');
  }
  assert.equal(await focused.getAttribute('aria-label'), want);
  await page.keyboard.press('Enter');
  await page.locator('.action-widget').waitFor({ state: 'hidden' });
}

function env(name) {
  const v = process.env[name];
  if (!v) {
    throw new Error(`${name} must be set (the Go test TestCodeServer sets it)`);
  }
  return v;
}

await step('workspace', async () => {
  await page.goto(url);
  await page.locator('.monaco-workbench .part.editor').waitFor();
  await page.locator('.explorer-folders-view .monaco-list-row[aria-label*="answer.md"]').waitFor();
});

await step('unsaved-change', async () => {
  await open(target);
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('Enter');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.type('# unsaved note');
  await expectText(unsaved, 'the typed line');
  await page.locator('.tab.active.dirty').waitFor();
});

await step('problems-panel', async () => {
  await open('answer.md');
  // The server diagnoses the answer's blocks as soon as it is open: the
  // first applies exactly (a hint, which the panel leaves out), the second
  // matches nothing (an error), its block on lines 16-23.
  await page.locator('.monaco-editor .squiggly-error').first().waitFor();
  await page.keyboard.press('Control+Shift+M');
  await page.locator('.markers-panel').waitFor();
  const rows = await until('the failing block in the Problems panel', problems, (r) => r.some((l) => /^Error: not found: .*\(src\/greet\.py\).* at line 1[6-9] .*generated by graft$/s.test(l)));
  console.log(`problems: ${JSON.stringify(rows)}`);
});

await step('apply-selection', async () => {
  // The whole answer selected: its prose, and blocks that name their file.
  await open('answer.md');
  await page.keyboard.press('Control+A');
  await command('Graft: Apply Selection as Edit Blocks', `${String(stepNo).padStart(2, '0')}-palette.png`);
  await expectStatus('Graft: 1 applied, 1 failed');
});

await step('buffer-edited-disk-not', async () => {
  await open(target);
  await expectText(applied, 'the unsaved buffer after the apply');
  assert.equal(fs.readFileSync(path.join(workspace, target), 'utf8'), disk, 'the disk is untouched');
  await page.locator('.tab.active.dirty').waitFor();
});

await step('undo', async () => {
  await open(target);
  await page.keyboard.press('Control+Z');
  await expectText(unsaved, 'the buffer after one undo');
  assert.equal(fs.readFileSync(path.join(workspace, target), 'utf8'), disk);
});

await step('preview', async () => {
  await open('answer.md');
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Control+C');
  await open(target);
  await command('Graft: Preview Edit Blocks from Clipboard');
  const diff = page.locator('.editor-group-container.active .monaco-diff-editor');
  await diff.waitFor();
  // Named as the workspace names the file (one folder: no folder name).
  await page.locator('.tab.active[aria-label^="Graft preview: src/greet.py"]').waitFor();
  // Left the buffer as it is, right the buffer after the edit.
  await until('the preview\'s left side', () => shownText(diff.locator('.editor.original')), (t) => t === unsaved);
  await until('the preview\'s right side', () => shownText(diff.locator('.editor.modified')), (t) => t === applied);
  await expectStatus('Graft: 1 would apply, 1 failed');
});

await step('preview-changed-nothing', async () => {
  await open(target);
  await expectText(unsaved, 'the buffer after a preview');
  assert.equal(fs.readFileSync(path.join(workspace, target), 'utf8'), disk);
});

await step('lightbulb', async () => {
  await open('answer.md');
  // The cursor on the first block's first line (7), at its start: VS Code
  // asks for code actions where the cursor touches text.
  await lightbulb(7, 'Apply edit block → src/greet.py');
});

await step('code-action-applied', async () => {
  await chooseAction('Apply edit block → src/greet.py');
  await expectStatus('Graft: 1 applied');
  await open(target);
  await expectText(applied, 'the buffer after the code action');
  assert.equal(fs.readFileSync(path.join(workspace, target), 'utf8'), disk);
});

// An answer of three blocks for one file: block 1 applied from the
// lightbulb, then "Apply all" for the other two. Each block's code is in
// the file once (block 2 inserts after the line it searches for, which
// stays), and the answer shows every block applied.
const shapes = 'src/shapes.py';
const shapesDisk = fs.readFileSync(path.join(workspace, shapes), 'utf8');
const shapesArea = shapesDisk.replace('return w * h', 'return h * w');
const shapesAll = shapesArea
  .replace('return 2 * (w + h)', 'return 2 * w + 2 * h')
  .replace('def name(): return "rect"\n', 'def name(): return "rect"\n\ndef sides(): return 4\n');
assert.notEqual(shapesArea, shapesDisk);
// The 1-based line of each block's SEARCH marker in blocks.md.
const blockLines = fs.readFileSync(path.join(workspace, 'blocks.md'), 'utf8').split('\n')
  .flatMap((l, i) => (l === '<<<<<<< SEARCH' ? [i + 1] : []));
assert.equal(blockLines.length, 3);

await step('blocks-one-from-lightbulb', async () => {
  await open(shapes);
  await open('blocks.md');
  await lightbulb(blockLines[0], 'Apply edit block → src/shapes.py', { orKeys: true });
  await chooseAction('Apply edit block → src/shapes.py');
  await expectStatus('Graft: 1 applied');
  await open(shapes);
  await expectText(shapesArea, 'src/shapes.py after block 1\'s code action');
});

await step('blocks-apply-all', async () => {
  await open('blocks.md');
  // Block 2's actions: the Apply all counts the two blocks left.
  await lightbulb(blockLines[1], 'Apply all 2 edit blocks', { orKeys: true });
  await chooseAction('Apply all 2 edit blocks');
  await expectStatus('Graft: 2 applied');
  await open(shapes);
  await expectText(shapesAll, 'src/shapes.py after Apply all');
  const text = await editorText();
  for (const code of ['return h * w', 'def sides(): return 4', 'return 2 * w + 2 * h', 'def name(): return "rect"']) {
    assert.equal(text.split(code).length - 1, 1, `${JSON.stringify(code)} once in src/shapes.py:\n${text}`);
  }
  assert.equal(fs.readFileSync(path.join(workspace, shapes), 'utf8'), shapesDisk, 'the disk is untouched');
});

await step('blocks-all-applied', async () => {
  await open('blocks.md');
  // The panel closed, the whole answer shows: each block with its
  // "Applied" lens alone, and no error or warning squiggle.
  if (await page.locator('.part.panel').isVisible()) {
    await page.keyboard.press('Control+J');
    await page.locator('.part.panel').waitFor({ state: 'hidden' });
  }
  const editor = page.locator('.editor-group-container.active .monaco-editor');
  const lenses = await until('every block\'s lens to read Applied',
    () => editor.locator('.codelens-decoration').allInnerTexts(),
    (l) => l.length === 3 && l.every((t) => t.trim() === 'Applied → src/shapes.py'));
  console.log(`lenses: ${JSON.stringify(lenses)}`);
  assert.equal(await editor.locator('.squiggly-error, .squiggly-warning').count(), 0, 'no error or warning on the answer');
  // Nothing is left to apply: Ctrl+. on block 1 offers no Apply (VS
  // Code says "No code actions available" when the server offers none).
  await page.keyboard.press('Control+G');
  await quickInput();
  await page.keyboard.type(String(blockLines[0]));
  await page.keyboard.press('Enter');
  await editorFocused();
  await page.keyboard.press('Control+Period');
  const menu = page.locator('.action-widget');
  const none = page.locator('.monaco-editor-overlaymessage', { hasText: 'No code actions available' });
  await menu.or(none).first().waitFor();
  const offered = (await menu.isVisible())
    ? await menu.locator('.monaco-list-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label') ?? r.textContent))
    : [];
  console.log(`actions on block 1 with every block applied: ${JSON.stringify(offered)}`);
  assert.ok(!offered.some((t) => t && t.startsWith('Apply')), `no Apply action offered: ${JSON.stringify(offered)}`);
  await page.keyboard.press('Escape');
  await page.locator('.action-widget').waitFor({ state: 'hidden' });
});

/** lensTexts returns the code lenses the active editor shows. */
async function lensTexts() {
  return page.locator('.editor-group-container.active .monaco-editor .codelens-decoration').allInnerTexts();
}

/** notification waits for a notification whose text matches re, and returns it. */
async function notification(re) {
  const item = page.locator('.notification-list-item').filter({ hasText: re }).first();
  await item.waitFor();
  return item;
}

// An answer pasted into a new, unsaved buffer: VS Code guesses its
// language from the text (an answer full of Go reads as Go), and Graft
// must read it as an answer whatever the language; VS Code's own
// merge-conflict lenses ("Accept Current Change") must not sit on its
// blocks, where one click mangles the answer.
const calc = 'src/calc.go';
const calcDisk = fs.readFileSync(path.join(workspace, calc), 'utf8');
const calcAnswer = [
  'Document Add:',
  '',
  calc,
  '```go',
  '<<<<<<< SEARCH',
  'func Add(a, b int) int {',
  '=======',
  '// Add returns the sum of a and b.',
  'func Add(a, b int) int {',
  '>>>>>>> REPLACE',
  '```',
  '',
].join('\n');
const calcApplied = calcDisk.replace('func Add', '// Add returns the sum of a and b.\nfunc Add');
assert.notEqual(calcApplied, calcDisk);

await step('untitled-answer-as-go', async () => {
  // File: New Untitled Text File (in a browser, VS Code leaves Ctrl+N to it).
  await page.keyboard.press('Control+Alt+N');
  await page.locator('.tab.active[aria-label^="Untitled-"]').waitFor();
  await editorFocused();
  await page.evaluate((t) => navigator.clipboard.writeText(t), calcAnswer);
  await page.keyboard.press('Control+V');
  await expectText(calcAnswer, 'the pasted answer');
  // Whatever VS Code guessed, make it Go, as it guesses for such a text.
  // As a person does: the language in the status bar, then Go.
  await page.locator('.statusbar-item[id="status.editor.mode"]').click();
  await quickInput();
  await page.keyboard.type('Go');
  await page.locator('.quick-input-list .monaco-list-row.focused[aria-label^="Go"]').waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  await page.locator('.statusbar-item[id="status.editor.mode"]', { hasText: /^Go$/ }).waitFor();
  const lenses = await until('Graft\'s lens on the block of the untitled Go buffer', lensTexts,
    (l) => l.some((t) => t.includes(`Apply → ${calc}`)));
  console.log(`lenses on the untitled answer: ${JSON.stringify(lenses)}`);
  assert.ok(!lenses.some((t) => /Accept (Current|Incoming|Both)/.test(t)), `merge-conflict lenses on the answer: ${JSON.stringify(lenses)}`);
});

await step('untitled-answer-applied', async () => {
  await page.locator('.editor-group-container.active .codelens-decoration a', { hasText: `Apply → ${calc}` }).first().click();
  await expectStatus('Graft: 1 applied');
  await open(calc);
  await expectText(calcApplied, 'src/calc.go after the untitled answer\'s lens');
  assert.equal(fs.readFileSync(path.join(workspace, calc), 'utf8'), calcDisk, 'the disk is untouched');
});

await step('no-merge-conflict-lens-on-answers', async () => {
  await open('blocks.md');
  const lenses = await until('the lenses of blocks.md', lensTexts, (l) => l.length > 0);
  assert.ok(!lenses.some((t) => /Accept (Current|Incoming|Both)/.test(t)), `merge-conflict lenses on blocks.md: ${JSON.stringify(lenses)}`);
});

// A suggested block that changes two separate places of src/hunks.py:
// its two hunks are drawn in the editor (the buffer as it was), one is
// accepted from its lens, the other rejected, and one Ctrl+Z takes the
// accepted one back.
const hunksFile = 'src/hunks.py';
const hunksDisk = fs.readFileSync(path.join(workspace, hunksFile), 'utf8');
const hunksFirst = hunksDisk.replace('return "one"', 'return "uno"');
const hunksAnswer = [
  hunksFile,
  '```',
  '<<<<<<< SEARCH',
  ...hunksDisk.trimEnd().split('\n'),
  '=======',
  ...hunksDisk.replace('return "one"', 'return "uno"').replace('return "three"', 'return "tres"').trimEnd().split('\n'),
  '>>>>>>> REPLACE',
  '```',
  '',
].join('\n');
assert.notEqual(hunksFirst, hunksDisk);

/**
 * hunkDrawings returns what the active editor draws of pending hunks: the
 * text of its after-decorations (the added text) and the number of lines
 * on the diff editor's removed-line background.
 */
async function hunkDrawings() {
  const editor = page.locator('.editor-group-container.active .monaco-editor').first();
  return editor.evaluate((ed) => {
    const probe = document.createElement('div');
    probe.style.background = 'var(--vscode-diffEditor-removedLineBackground)';
    ed.appendChild(probe);
    const removedColor = getComputedStyle(probe).backgroundColor;
    probe.remove();
    const added = [...ed.querySelectorAll('.view-lines span')]
      .map((s) => getComputedStyle(s, '::after').content)
      .filter((c) => c && c !== 'none' && c.includes('+ '))
      .map((c) => JSON.parse(c));
    const removed = [...ed.querySelectorAll('.view-overlays .cdr')]
      .filter((o) => getComputedStyle(o).backgroundColor === removedColor).length;
    return { added, removed, removedColor };
  });
}

await step('hunks-drawn', async () => {
  await open(hunksFile);
  await page.evaluate((t) => navigator.clipboard.writeText(t), hunksAnswer);
  await command('Graft: Suggest Edit Blocks from Clipboard');
  await until('the status bar to say what was suggested', statusText, (t) => /^Graft: \d+ suggested/.test(t));
  const drawn = await until('both hunks drawn', hunkDrawings, (d) => d.added.length === 2 && d.removed === 2);
  console.log(`hunks drawn: ${JSON.stringify(drawn)}`);
  assert.ok(drawn.added[0].includes('return "uno"') && drawn.added[1].includes('return "tres"'), JSON.stringify(drawn.added));
  await page.locator('.statusbar-item[id$=".graft.hunks"]', { hasText: 'Graft: 2 hunks pending' }).waitFor();
  const lenses = await until('the hunks\' lenses', lensTexts, (l) => l.filter((t) => t.includes('Accept (')).length === 2);
  console.log(`lenses: ${JSON.stringify(lenses)}`);
  await expectText(hunksDisk, 'the buffer with two hunks pending');
});

await step('hunk-accepted', async () => {
  await page.locator('.editor-group-container.active .codelens-decoration a', { hasText: /^Accept \(/ }).first().click();
  await expectText(hunksFirst, 'the buffer after accepting the first hunk');
  const drawn = await until('one hunk drawn', hunkDrawings, (d) => d.added.length === 1 && d.removed === 1);
  assert.ok(drawn.added[0].includes('return "tres"'), JSON.stringify(drawn.added));
  await page.locator('.statusbar-item[id$=".graft.hunks"]', { hasText: 'Graft: 1 hunk pending' }).waitFor();
  // The server's lenses follow: one Accept | Reject, no Accept all.
  await until('the lenses of the one hunk left', lensTexts,
    (l) => l.filter((t) => t.includes('Accept (')).length === 1 && !l.some((t) => t.includes('Accept all')));
});

await step('hunk-rejected', async () => {
  await page.locator('.editor-group-container.active .codelens-decoration a', { hasText: /^Reject$/ }).first().click();
  await until('no hunk drawn', hunkDrawings, (d) => d.added.length === 0 && d.removed === 0);
  await page.locator('.statusbar-item[id$=".graft.hunks"]').waitFor({ state: 'hidden' });
  await until('no hunk lens', lensTexts, (l) => !l.some((t) => /Accept|Reject/.test(t)));
  await expectText(hunksFirst, 'the buffer after rejecting the second hunk');
});

await step('hunk-undone', async () => {
  await page.keyboard.press('Control+Z');
  await expectText(hunksDisk, 'the buffer after one undo');
  assert.equal(fs.readFileSync(path.join(workspace, hunksFile), 'utf8'), hunksDisk, 'the disk is untouched');
});

await step('hunk-keys', async () => {
  // The same answer again, worked from the keyboard: Alt+F5 goes to the
  // first hunk, Alt+Y accepts it, the palette rejects the rest of the file.
  await open(hunksFile);
  await page.evaluate((t) => navigator.clipboard.writeText(t), hunksAnswer);
  await command('Graft: Suggest Edit Blocks from Clipboard');
  await until('both hunks drawn', hunkDrawings, (d) => d.added.length === 2 && d.removed === 2);
  // A line typed above the hunks moves them: the drawing and Alt+F5 follow.
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Control+Home');
  await until('the first hunk drawn on line 3', () => page.locator('.editor-group-container.active .view-line')
    .evaluateAll((ls) => ls.filter((l) => [...l.querySelectorAll('span')].some((s) => getComputedStyle(s, '::after').content.includes('+ ')))
      .map((l) => Math.round(parseFloat(l.style.top) / l.offsetHeight) + 1)), (tops) => tops.join() === '3,11');
  await page.keyboard.press('Alt+F5');
  await page.locator('.statusbar-item[id="status.editor.selection"]', { hasText: /^Ln 3, Col 1$/ }).waitFor();
  await page.keyboard.press('Alt+Y');
  await until('one hunk drawn', hunkDrawings, (d) => d.added.length === 1 && d.removed === 1);
  await command('Graft: Reject All Hunks in File');
  await until('no hunk drawn', hunkDrawings, (d) => d.added.length === 0 && d.removed === 0);
  await page.locator('.statusbar-item[id$=".graft.hunks"]').waitFor({ state: 'hidden' });
  await expectText('\n' + hunksFirst, 'the buffer after Alt+Y and Reject All');
});

// An apply-patch that adds a file, applied from the answer's lens: the
// new file holds exactly the patch's lines, no line more, and is never
// empty on disk. VS Code makes a WorkspaceEdit's CreateFile on disk at
// once; the extension gives it the file's text, so that closing or
// quitting without saving leaves no empty file behind (an empty .go file
// breaks the build). One Ctrl+Z in the file deletes it again.
const newFile = 'src/calc_test.go';
const newFileText = fs.readFileSync(path.join(workspace, 'newfile.md'), 'utf8').split('\n')
  .filter((l) => l.startsWith('+')).map((l) => l.slice(1) + '\n').join('');
assert.ok(newFileText.startsWith('package calc\n') && newFileText.endsWith('\t}\n}\n'), JSON.stringify(newFileText));

/** diskText returns the text of a workspace file on disk, or undefined when there is none. */
function diskText(file) {
  const p = path.join(workspace, file);
  return fs.existsSync(p) ? fs.readFileSync(p, 'utf8') : undefined;
}

await step('new-file-applied', async () => {
  assert.equal(diskText(newFile), undefined, `${newFile} before the apply`);
  await open('newfile.md');
  await until('the Add File block\'s lens', lensTexts, (l) => l.some((t) => t.includes(`Apply → ${newFile}`)));
  await page.locator('.editor-group-container.active .codelens-decoration a', { hasText: `Apply → ${newFile}` }).first().click();
  await expectStatus('Graft: 1 applied');
  assert.equal(diskText(newFile), newFileText, 'the file as the patch says, at once');
  // The server reads the new file as holding the block's result.
  await until('the lens to say the block is applied', lensTexts, (l) => l.length === 1 && l[0].trim() === `Applied → ${newFile}`);
  const editor = page.locator('.editor-group-container.active .monaco-editor');
  assert.equal(await editor.locator('.squiggly-error, .squiggly-warning').count(), 0, 'no error or warning on the answer');
});

await step('new-file-buffer', async () => {
  await open(newFile);
  await expectText(newFileText, 'the new file\'s buffer');
  assert.equal(await page.locator('.tab.active.dirty').count(), 0, 'nothing unsaved in the new file');
});

await step('new-file-undone', async () => {
  await page.keyboard.press('Control+Z');
  await until(`${newFile} gone from the disk`, () => diskText(newFile), (t) => t === undefined);
  assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'no question asked');
  await open('newfile.md');
  await until('the lens to offer the block again', lensTexts, (l) => l.some((t) => t.includes(`Apply → ${newFile}`)));
  assert.equal(diskText(newFile), undefined);
});

await step('new-file-closed', async () => {
  // Applied again, and its editor closed: nothing to save, and the file
  // stays as the patch says.
  await page.locator('.editor-group-container.active .codelens-decoration a', { hasText: `Apply → ${newFile}` }).first().click();
  await expectStatus('Graft: 1 applied');
  // From the explorer: Quick Open leaves out a file it saw deleted.
  const name = path.posix.basename(newFile);
  await page.locator(`.explorer-folders-view .monaco-list-row[aria-label^="${name}"]`).dblclick();
  await page.locator(`.tab.active[aria-label^="${name}"]`).waitFor();
  await editorFocused();
  await expectText(newFileText, 'the new file\'s buffer, made again');
  await page.keyboard.press('Control+W');
  await page.locator(`.tab[aria-label^="${name}"]`).waitFor({ state: 'detached' });
  assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'no question asked');
  assert.equal(diskText(newFile), newFileText);
  await page.locator('.tab.active[aria-label^="newfile.md"]').waitFor();
  await until('the lens to say the block is applied', lensTexts, (l) => l.length === 1 && l[0].trim() === `Applied → ${newFile}`);
});

// An apply-patch of two files is one block, as a person counts them: the
// block after it is block 2, and "Apply all" counts 2 blocks.
await step('numbers-actions', async () => {
  await open('numbers.md');
  // Ctrl+. over the whole answer offers each block's actions, numbered.
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Control+Period');
  const offered = await until('the actions on the whole answer',
    () => page.locator('.action-widget .monaco-list-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label') ?? r.textContent)),
    (o) => o.some((t) => t && t.startsWith('Apply all')));
  console.log(`actions on numbers.md: ${JSON.stringify(offered)}`);
  for (const want of ['Apply edit block 1 → src/one.py', 'Apply edit block 1 → src/two.py', 'Apply edit block 2 → src/three.py', 'Apply all 2 edit blocks']) {
    assert.ok(offered.includes(want), `${want} in ${JSON.stringify(offered)}`);
  }
  assert.ok(!offered.some((t) => t && /block 3|3 edit blocks/.test(t)), `a block 3 in ${JSON.stringify(offered)}`);
  await page.keyboard.press('Escape');
  await page.locator('.action-widget').waitFor({ state: 'hidden' });
});

await step('numbers-preview-block-2', async () => {
  await open('numbers.md');
  await command('Notifications: Clear All Notifications');
  await open('numbers.md');
  await until('the lenses of numbers.md', lensTexts, (l) => l.filter((t) => t.includes('Apply →')).length === 3);
  // The Preview lens of the block after the patch: the server's message says block 2.
  await page.locator('.editor-group-container.active .codelens-decoration a', { hasText: /^Preview$/ }).nth(2).click();
  const note = await notification(/Graft preview: edit block 2 → src\/three\.py applies at lines 1-1/);
  console.log(`preview notification: ${JSON.stringify(await note.innerText())}`);
});

await step('numbers-apply-all', async () => {
  await command('Notifications: Clear All Notifications');
  await open('numbers.md');
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Control+Period');
  await page.locator('.action-widget').waitFor();
  await chooseAction('Apply all 2 edit blocks');
  await expectStatus('Graft: 2 applied');
  // The report numbers the blocks as the status bar counts them.
  await command('Graft: Show Last Report');
  await page.locator('.tab.active[aria-label^="Graft Report.md"]').waitFor();
  const report = page.locator('.editor-group-container.active .monaco-editor');
  const text = await until('the report', () => shownText(report), (t) => t.includes('src/three.py'));
  console.log(`report:\n${text}`);
  assert.match(text, /^# Apply: 2 applied$/m);
  assert.match(text, /^- block 1 \(apply-patch\) src\/one\.py:1: \*\*applied\*\*/m);
  assert.match(text, /^- block 1 \(apply-patch\) src\/two\.py:1: \*\*applied\*\*/m);
  assert.match(text, /^- block 2 \(search-replace\) src\/three\.py:1: \*\*applied\*\*/m);
  assert.doesNotMatch(text, /block 3/);
  // The server's own message counts each file of the patch (lsp summarize).
  const notes = await page.locator('.notification-list-item').allInnerTexts();
  console.log(`notifications: ${JSON.stringify(notes)}`);
});

// An agent at the folder above the workspace (the top of a repository,
// where agents run) applies its answer with graft apply: it finds the
// extension's graft serve through the editor link, and the answer lands
// in the open buffer, the person's unsaved line kept and the disk as it
// was; one Ctrl+Z takes the agent's change back.
const agentTarget = 'src/agent.py';
const agentDisk = diskText(agentTarget);
const agentUnsaved = agentDisk + '# unsaved by the person';

await step('agent-answer', async () => {
  await open(agentTarget);
  await page.keyboard.press('Control+End');
  await page.keyboard.type('# unsaved by the person');
  await expectText(agentUnsaved, 'the person\'s unsaved line');
  const top = path.dirname(workspace);
  const name = `${path.basename(workspace)}/${agentTarget}`;
  const answer = path.join(top, 'agent-answer.md');
  fs.writeFileSync(answer, `${name}\n<<<<<<< SEARCH\n    return 80\n=======\n    return 8080\n>>>>>>> REPLACE\n`);
  const report = JSON.parse(execFileSync(graft, ['apply', '--json', answer], { cwd: top, encoding: 'utf8' }));
  console.log(`graft apply: via ${report.via}, ${JSON.stringify(report.blocks.map((b) => `${b.path} ${b.status}`))}`);
  assert.equal(report.via, 'editor', 'the answer went to the editor');
  assert.deepEqual(report.blocks.map((b) => `${b.path} ${b.status}`), [`${name} applied`]);
  // The person is told whose edit changed the buffer (before reading the
  // buffer: its Escape hides the toast).
  await notification(/Graft: an agent's answer: 1 applied to workspace\/src\/agent\.py/);
  await page.locator('.notification-toast.notification-fade-in-done').first().waitFor(); // shown whole
  await page.screenshot({ path: path.join(out, `${String(stepNo).padStart(2, '0')}-agent-answer-told.png`) });
  await expectText(agentUnsaved.replace('return 80', 'return 8080'), 'the agent\'s change in the unsaved buffer');
  assert.equal(diskText(agentTarget), agentDisk, 'the disk as it was');
  await expectStatus("Graft: an agent's edit");
});

await step('agent-answer-undone', async () => {
  await page.keyboard.press('Control+Z');
  await expectText(agentUnsaved, 'the person\'s unsaved line, the agent\'s change undone');
  assert.equal(diskText(agentTarget), agentDisk, 'the disk as it was');
});

// An agent that writes its change to a file itself, on the disk, while
// the answer is open and the file is not: VS Code tells the server, which
// asked it to watch the files, and the block's lens says it is applied,
// the answer untouched.
const writtenFile = 'src/written.py';

await step('agent-wrote-the-disk', async () => {
  await open('written.md');
  await until('the block\'s Apply lens', lensTexts, (l) => l.some((t) => t.includes(`Apply → ${writtenFile}`)));
  const p = path.join(workspace, writtenFile);
  fs.writeFileSync(p, fs.readFileSync(p, 'utf8').replace('return sum(xs)', 'return sum(xs, 0)'));
  await until('the lens to say the block is applied', lensTexts, (l) => l.length === 1 && l[0].trim() === `Applied → ${writtenFile}`);
  assert.equal(await page.locator('.tab.active.dirty').count(), 0, 'the answer is untouched');
});

// A command that fails says so in the status bar, not the result of the
// one before, and says what to do in the person's words.
await step('error-replaces-status', async () => {
  await page.evaluate(() => navigator.clipboard.writeText('Sure! I changed the greeting for you.\n'));
  await command('Graft: Apply Edit Blocks from Clipboard');
  await notification(/the clipboard holds no edit blocks: copy an agent's answer/);
  await expectStatus('Graft: apply failed');
  const shown = await page.locator('.notification-list-item').allInnerTexts();
  console.log(`notifications: ${JSON.stringify(shown)}`);
  assert.ok(!shown.some((t) => /dialect|text: /.test(t)), `the server's words in a notification: ${JSON.stringify(shown)}`);
  await page.keyboard.press('Escape');
});

// graft.path set to a binary that is not there: the notification's "Open
// Settings" opens the tab where graft.path can be set. It is
// machine-overridable, so in code-server (a remote window) that is the
// Remote tab; the User tab finds no such setting.
const machineSettings = path.join(userData, 'Machine', 'settings.json');
fs.mkdirSync(path.dirname(machineSettings), { recursive: true });
const machineBefore = fs.existsSync(machineSettings) ? fs.readFileSync(machineSettings, 'utf8') : undefined;

await step('missing-binary-open-settings', async () => {
  // Close what is left of the notifications: the next one is to be clicked.
  await command('Notifications: Clear All Notifications');
  fs.writeFileSync(machineSettings, JSON.stringify({ 'graft.path': '/nonexistent/graft' }, null, 2));
  const note = await notification(/"graft\.path" is set to "\/nonexistent\/graft", which was not found/);
  await expectStatus('Graft: not running');
  await page.screenshot({ path: path.join(out, `${String(stepNo).padStart(2, '0')}-missing-binary.png`) });
  await note.locator('a.monaco-button', { hasText: 'Open Settings' }).click();
  const editor = page.locator('.settings-editor');
  await editor.waitFor();
  const tab = await until('the Remote tab to be the one open',
    () => editor.locator('.settings-tabs-widget .action-label.checked').innerText(), (t) => /^Remote/.test(t));
  console.log(`settings tab: ${JSON.stringify(tab)}`);
  const setting = editor.locator('.setting-item-contents', { hasText: 'Graft: Path' }).first();
  await until('graft.path, with its value, on the Remote tab', () => setting.locator('input').inputValue(), (v) => v === '/nonexistent/graft');
  assert.equal(await editor.locator('.no-results-message:visible').count(), 0, 'the settings editor found graft.path');
});

await step('binary-back', async () => {
  if (machineBefore === undefined) {
    fs.rmSync(machineSettings);
  } else {
    fs.writeFileSync(machineSettings, machineBefore);
  }
  // The extension starts its own graft again: the answer's lenses are
  // back, and a command reaches the server.
  await open('blocks.md');
  await until('blocks.md\'s lenses from the restarted server', lensTexts,
    (l) => l.length === 3 && l.every((t) => t.trim() === 'Applied → src/shapes.py'));
  await command('Graft: Preview Edit Blocks from Clipboard');
  await notification(/the clipboard holds no edit blocks/);
  await expectStatus('Graft: preview failed');
});

await browser.close();
console.log(`all ${stepNo} steps passed`);
