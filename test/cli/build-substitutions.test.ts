/**
 * The bundle carries its remembering substitutions (scripts/build.mjs): Ink's renderer gets the
 * row-remembering Output (nothing else imports src/ui/terminal/ink-output.ts) and string-width
 * is the display-width memo; Ink's own Output is not in the bundle at all, and its sanitizeAnsi
 * is remembered.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ROW_MEMO_SIZE } from '../../src/ui/terminal/ink-output.js';
import { PIECES_MEMO_SIZE } from '../../src/ui/terminal/ink-styled-chars.js';
import { DISPLAY_WIDTH_MEMO_SIZE } from '../../src/view/display-width.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'synctop-build-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('the bundle', () => {
  it("gives Ink's renderer the row-remembering Output, and string-width the memo", () => {
    execFileSync(process.execPath, [join(root, 'scripts/build.mjs'), '--outdir', out, '--no-minify'], { cwd: root, stdio: 'pipe' });
    const files = [join(out, 'synctop.js'), ...readdirSync(join(out, 'chunks')).map((f) => join(out, 'chunks', f))];
    const text = files.map((f) => readFileSync(f, 'utf8')).join('\n');
    expect(text).toContain(`ROW_MEMO_SIZE = ${ROW_MEMO_SIZE}`);
    expect(text).toContain(`PIECES_MEMO_SIZE = ${PIECES_MEMO_SIZE}`);
    expect(text).toContain(`DISPLAY_WIDTH_MEMO_SIZE = ${DISPLAY_WIDTH_MEMO_SIZE}`);
    // Ink's own Output (its per-frame OutputCaches class) and the package's styledCharsFromTokens
    // (a style list copied per character) are not bundled.
    expect(text).not.toContain('class OutputCaches');
    // Ink's squash-text-nodes calls its sanitizeAnsi through the memo.
    expect(text).toMatch(/var \w+ = rememberText\(sanitize_ansi_default\b/);
    expect(text).not.toMatch(/styles: \[\.\.\.codes\]/);
  });
});
