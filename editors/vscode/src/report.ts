// The replies of the server's commands (README, "Use it in your editor")
// and how the extension shows them. Nothing here depends on VS Code.

/** A position as LSP sends it: a line and a UTF-16 character offset. */
export interface WirePosition {
  line: number;
  character: number;
}

/** A range as LSP sends it. */
export interface WireRange {
  start: WirePosition;
  end: WirePosition;
}

/** A text edit as LSP sends it. */
export interface WireTextEdit {
  range: WireRange;
  newText: string;
}

/** A change of a WorkspaceEdit's documentChanges. */
export type WireDocumentChange =
  | { textDocument: { uri: string; version: number | null }; edits: WireTextEdit[] }
  | { kind: 'create'; uri: string }
  | { kind: 'rename'; oldUri: string; newUri: string }
  | { kind: 'delete'; uri: string };

/** A WorkspaceEdit as LSP sends it. */
export interface WireWorkspaceEdit {
  changes?: Record<string, WireTextEdit[]>;
  documentChanges?: WireDocumentChange[];
}

/**
 * One block's entry in a reply: what happened to it, and where. An
 * apply-patch of several files has one entry per file, all with the
 * block's number.
 */
export interface BlockReport {
  index: number;
  /**
   * block is the block's number as a person counts the answer's blocks,
   * from 1: the files of one apply-patch are one block. A server older
   * than it sends none (see shownNumber).
   */
  block?: number;
  path: string;
  dialect: string;
  status: string;
  strategy: string;
  score: number;
  startLine: number;
  endLine: number;
  message: string;
  uri?: string;
  range?: WireRange;
  id?: string;
}

/** The reply to graft.apply. */
export interface ApplyResult {
  applied: boolean;
  failureReason?: string;
  blocks: BlockReport[];
}

/** The reply to graft.preview. */
export interface PreviewResult {
  edit: WireWorkspaceEdit;
  diff: string;
  blocks: BlockReport[];
}

/** The reply to graft.suggest. */
export interface SuggestResult {
  blocks: BlockReport[];
  suggestions: unknown[];
}

/** shownNumber is the block's number as the person counts the answer's blocks. */
export function shownNumber(b: BlockReport): number {
  return b.block !== undefined && b.block > 0 ? b.block : b.index + 1;
}

/**
 * The statuses from the worst to the best: a block of several files (an
 * apply-patch) has the status of its worst file.
 */
const worstFirst = ['failed', 'skipped', 'applied', 'already-applied'];

/**
 * shownStatuses returns the status of each block as the person counts
 * them: the entries of one apply-patch's files are one block, with the
 * status of its worst file.
 */
function shownStatuses(blocks: BlockReport[]): string[] {
  const byNumber = new Map<number, string>();
  for (const b of blocks) {
    const n = shownNumber(b);
    const seen = byNumber.get(n);
    if (seen === undefined || rank(b.status) < rank(seen)) {
      byNumber.set(n, b.status);
    }
  }
  return [...byNumber.values()];
}

/** rank is the place of a status in worstFirst; a status it does not know counts as the worst. */
function rank(status: string): number {
  const i = worstFirst.indexOf(status);
  return i < 0 ? -1 : i;
}

/** count returns how many blocks, as the person counts them, have the status. */
function count(blocks: BlockReport[], status: string): number {
  return shownStatuses(blocks).filter((s) => s === status).length;
}

/**
 * summarize says in a few words what a reply did: "Graft: 3 applied, 1
 * failed" (what would apply, for a preview; suggestions made, for
 * suggest), counting the blocks as the person counts them.
 */
export function summarize(res: ApplyResult | PreviewResult | SuggestResult): string {
  const blocks = res.blocks ?? [];
  const parts = [];
  if ('suggestions' in res) {
    parts.push(`Graft: ${res.suggestions?.length ?? 0} suggested`);
  } else if ('diff' in res) {
    parts.push(`Graft: ${count(blocks, 'applied')} would apply`);
  } else {
    parts.push(`Graft: ${count(blocks, 'applied')} applied`);
  }
  // A block whose change stood in the file already: nothing written, a
  // success.
  const already = count(blocks, 'already-applied');
  if (already > 0) {
    parts.push(`${already} already applied`);
  }
  const failed = count(blocks, 'failed');
  if (failed > 0) {
    parts.push(`${failed} failed`);
  }
  const skipped = count(blocks, 'skipped');
  if (skipped > 0) {
    parts.push(`${skipped} skipped`);
  }
  return parts.join(', ');
}

/**
 * statusWord names a block's status as the reply means it: a block that
 * resolves "would apply" in a preview and is "suggested" by suggest,
 * where the server says "applied" for both.
 */
function statusWord(res: ApplyResult | PreviewResult | SuggestResult, status: string): string {
  if (status !== 'applied') {
    return status;
  }
  if ('suggestions' in res) {
    return 'suggested';
  }
  if ('diff' in res) {
    return 'would apply';
  }
  return status;
}

/** formatReport returns a reply as a Markdown report, block by block. */
export function formatReport(title: string, res: ApplyResult | PreviewResult | SuggestResult): string {
  const lines = [`# ${title}: ${summarize(res).replace(/^Graft: /, '')}`, ''];
  if ('applied' in res && !res.applied && res.failureReason) {
    lines.push(`The editor did not apply the edit: ${res.failureReason}`, '');
  }
  for (const b of res.blocks ?? []) {
    const where = b.range ? `:${b.range.start.line + 1}` : '';
    const how = b.strategy ? ` by ${b.strategy}${b.score ? ` (score ${b.score.toFixed(2)})` : ''}` : '';
    lines.push(`- block ${shownNumber(b)} (${b.dialect || 'edit'}) ${b.path || '(no file)'}${where}: **${statusWord(res, b.status)}**${how}`);
    if (b.message) {
      for (const m of b.message.split('\n')) {
        lines.push(`  > ${m}`);
      }
    }
  }
  if ('diff' in res && res.diff) {
    lines.push('', '```diff', res.diff.replace(/\n$/, ''), '```');
  }
  return lines.join('\n') + '\n';
}

/** Where a command took the answer from, in the person's words. */
export type AnswerSource = 'clipboard' | 'selection';

/**
 * explainError says what went wrong with a command in the person's words,
 * and what they can do: the server's error names its own inputs ("text:
 * dialect: no edit blocks in the text").
 */
export function explainError(message: string, source?: AnswerSource): string {
  if (/no edit blocks/.test(message)) {
    const how = source === 'selection' ? 'select' : 'copy';
    return `the ${source ?? 'text'} holds no edit blocks: ${how} an agent's answer ` +
      '(its SEARCH/REPLACE blocks, diff or patch) and run the command again.';
  }
  return message;
}
