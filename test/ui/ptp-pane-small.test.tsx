/**
 * The PTP pane focused in a small terminal: the port list is whole (or says what it hides)
 * before the detail gets lines, and the detail grid never cuts a value with "…" while a line
 * of the pane stays empty.
 */
import { describe, expect, it } from 'vitest';
import { render } from 'ink-testing-library';
import { Screen } from '../../src/ui/App.js';
import { initialUiState } from '../../src/ui/ui-state.js';
import { DisplayContext, makeDisplay } from '../../src/ui/widgets/Display.js';
import { NOW, healthyState, ptpPort } from './fixtures.js';
import { frameViolations, stripAnsi } from './harness.js';

const LABELS = ['sync state', 'offset', 'path delay', 'GM identity', 'parent port', 'GM class', 'updated'];

function screen(ports: number, columns: number, rows: number): string {
  const state = healthyState();
  state.ptp = { ...state.ptp, data: { ports: Array.from({ length: ports }, (_, i) => ptpPort({ id: i })) } };
  const r = render(
    <DisplayContext.Provider value={makeDisplay(false, false)}>
      <Screen state={state} ui={{ ...initialUiState, focus: 'ptp' }} size={{ columns, rows }} now={NOW} />
    </DisplayContext.Provider>,
  );
  const frame = stripAnsi(r.lastFrame() ?? '');
  r.unmount();
  expect(frameViolations(frame, columns, rows)).toEqual([]);
  return frame;
}

/** The PTP pane's lines: from its title to the first summary line of another pane. */
function ptpLines(frame: string): string[] {
  const lines = frame.split('\n');
  const start = lines.findIndex((l) => /3 PTP/.test(l));
  const end = lines.findIndex((l, i) => i > start && /^\d [A-Z]/.test(l));
  return lines.slice(start + 1, end);
}

describe('the PTP pane focused at 80x24 and 100x30', () => {
  it.each([
    [2, 80, 24],
    [3, 80, 24],
    [2, 100, 30],
    [4, 100, 30],
  ])('%i ports at %ix%i: every port listed, every field whole, no empty line', (ports, columns, rows) => {
    const pane = ptpLines(screen(ports, columns, rows));
    for (let id = 0; id < ports; id++) expect(pane.some((l) => new RegExp(`^[▶ ] ${id}\\s`).test(l)), `port ${id}`).toBe(true);
    for (const label of LABELS) expect(pane.some((l) => l.includes(label)), label).toBe(true);
    expect(pane.filter((l) => l.includes('…'))).toEqual([]);
    expect(pane.filter((l) => l.trim() === '')).toEqual([]);
  });

  it('8 ports at 80x24: the list scrolls to the selection and says how many it hides', () => {
    const pane = ptpLines(screen(8, 80, 24));
    expect(pane.some((l) => /^▶ 0\s/.test(l))).toBe(true);
    expect(pane.some((l) => /↓ \d+ more below/.test(l))).toBe(true);
    expect(pane.some((l) => l.includes('sync state'))).toBe(true);
    expect(pane.filter((l) => l.trim() === '')).toEqual([]);
  });
});
