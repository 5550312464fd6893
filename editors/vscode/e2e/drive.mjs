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
//
// Each step logs "ok N name"; a failing one saves fail-<name>.png and the
// page's notifications, and the script exits 1.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium } from 'playwright-core';

const url = env('GRAFT_E2E_URL');
const workspace = env('GRAFT_E2E_WORKSPACE');
const out = env('GRAFT_E2E_OUT');
const chromiumPath = env('GRAFT_E2E_CHROMIUM');

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
    console.log(`ok ${stepNo} ${name} (${Date.now() - start} ms) ${shot}`);
  } catch (err) {
    console.log(`FAIL ${stepNo} ${name} (${Date.now() - start} ms): ${err.stack ?? err}`);
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

/** editorFocused waits for the keyboard focus to be in the active editor, the quick input closed. */
async function editorFocused() {
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  await page.waitForFunction(() => document.activeElement?.closest('.editor-group-container.active .monaco-editor') != null);
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
  await page.keyboard.press('Control+G');
  await quickInput();
  await page.keyboard.type('7');
  await page.keyboard.press('Enter');
  await editorFocused();
  // The lightbulb shows beside the cursor's line once the server answered
  // (not the one of where the cursor was before).
  const bulb = page.locator('.editor-group-container.active .lightBulbWidget');
  const line = page.locator('.editor-group-container.active .line-numbers', { hasText: /^7$/ });
  await until('the lightbulb on line 7', async () => {
    const [b, l] = [await bulb.boundingBox(), await line.boundingBox()];
    return b && l && Math.abs(b.y + b.height / 2 - (l.y + l.height / 2)) < l.height;
  }, (near) => near);
  await bulb.click();
  await page.locator('.action-widget .monaco-list-row', { hasText: 'Apply edit block → src/greet.py' }).first().waitFor();
});

await step('code-action-applied', async () => {
  // Down to the action and Enter, as the menu says ("Enter to Apply").
  const want = 'Apply edit block → src/greet.py';
  const focused = page.locator('.action-widget .monaco-list-row.focused');
  for (let i = 0; i < 5 && (await focused.getAttribute('aria-label')) !== want; i++) {
    await page.keyboard.press('ArrowDown');
  }
  assert.equal(await focused.getAttribute('aria-label'), want);
  await page.keyboard.press('Enter');
  await page.locator('.action-widget').waitFor({ state: 'hidden' });
  await expectStatus('Graft: 1 applied');
  await open(target);
  await expectText(applied, 'the buffer after the code action');
  assert.equal(fs.readFileSync(path.join(workspace, target), 'utf8'), disk);
});

await browser.close();
console.log(`all ${stepNo} steps passed`);
