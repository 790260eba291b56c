/**
 * Ink's sanitizeAnsi (which keeps only SGR and OSC sequences in a text node's text), remembered.
 * Ink runs it on every text node's squashed text in every frame, tokenizing each styled row
 * again although most rows are the same strings as a second ago. The bundle routes
 * ink/build/squash-text-nodes.js's import of it here (scripts/build.mjs); the answers are Ink's.
 */
import sanitizeAnsi from 'ink/build/sanitize-ansi.js';
import { rememberText } from './text-memo.js';

// Ink asks it for every text node of every frame: a few screens' worth of rows is enough.
export default rememberText(sanitizeAnsi, 512, 4096, 1 << 18);
