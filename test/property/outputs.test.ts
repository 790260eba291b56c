/**
 * The whole path from device bytes to what a technician reads, on mutated fixtures of all four
 * operations at once: decode -> buildSnapshot -> the text report (color on and off, Unicode and
 * ASCII) and the --json snapshot. Nothing throws; no output carries a raw control character,
 * ESC, C1 control or bidi override (beyond the report's own SGR colors); every section is data or
 * an error with a sentence; the JSON is valid and what a script would print from it is safe too.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { snapshotJson } from '../../src/report/json.js';
import { textReport } from '../../src/report/text.js';
import { firstUnsafe, numRuns, strings, stripSgr, timeoutFor } from './arbitraries.js';
import { pollBodies, sectionProblem, snapshotOf, TAKEN_AT } from './pipeline.js';

/**
 * Each run renders four text reports (~20 ms here since they carry the NTP legend and the whole
 * health table): `npm test` makes 500 runs, `npm run fuzz` as many as FUZZ_RUNS asks for.
 */
const reportRuns = process.env.FUZZ_RUNS ? numRuns : Math.min(numRuns, 500);

function check(what: string, text: string): void {
  const bad = firstUnsafe(text);
  if (bad) throw new Error(`${what}: unsafe ${bad}`);
}

describe('device bytes to every output', () => {
  it('text report (color on/off, Unicode/ASCII) and --json: never throw, never leak a control character', () => {
    fc.assert(
      fc.property(pollBodies, (bodies) => {
        const snap = snapshotOf(bodies);
        const problem = sectionProblem(snap);
        if (problem) throw new Error(problem);

        for (const color of [false, true]) {
          for (const ascii of [false, true]) {
            const report = textReport(snap, { color, ascii, now: TAKEN_AT.getTime() });
            if (!color && report.includes('\x1b')) throw new Error('escape sequence in a report without color');
            check(`text report color=${color} ascii=${ascii}`, color ? stripSgr(report) : report);
          }
        }

        const json = snapshotJson(snap);
        check('--json', json);
        // `jq -r` prints the decoded strings: those must be as safe as the document.
        for (const s of strings(JSON.parse(json))) check('a --json string', s);
      }),
      { numRuns: reportRuns },
    );
  }, Math.max(timeoutFor(40), 60_000));
});
