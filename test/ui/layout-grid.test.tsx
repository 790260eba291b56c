/**
 * The layout over a grid of terminal sizes and device contents, on the rendered screen: no
 * frame wider than the terminal or taller than rows-1, at most one empty body line while some
 * pane shows less than it has, and no identity (NTP source, grandmaster) cut while a droppable
 * column is still shown.
 */
import { describe, expect, it } from 'vitest';
import { render } from 'ink-testing-library';
import { Screen, paneNeeds } from '../../src/ui/App.js';
import { paneHeights, planLayout } from '../../src/ui/layout.js';
import { PANES, initialUiState } from '../../src/ui/ui-state.js';
import { DisplayContext, makeDisplay } from '../../src/ui/widgets/Display.js';
import { headerLines } from '../../src/view/header.js';
import { NOW, healthyState, ntpSource, ptpPort, receiver } from './fixtures.js';
import { frameViolations, stripAnsi } from './harness.js';

const NAMES = ['[2001:db8:4a2f:100::1234:5678:9abc]', 'ntp1.example.net', '192.168.10.4', 'PPS0', 'time.long-name.example.org'];
const GM = 'ac1f6b.fffe.12a4c8';

function stateWith(sources: number, receivers: number, ports: number, events: number) {
  const s = healthyState();
  s.ntp = { ...s.ntp, data: { ...s.ntp.data!, sources: Array.from({ length: sources }, (_, i) => ntpSource({ name: i < NAMES.length ? NAMES[i]! : `ntp${i}.example.net`, offsetNs: 1000 * i })) } };
  s.gnss = { ...s.gnss, data: { receivers: Array.from({ length: receivers }, (_, i) => receiver({ id: i })) } };
  s.ptp = { ...s.ptp, data: { ports: Array.from({ length: ports }, (_, i) => ptpPort({ id: i, gmIdentity: GM, parentPortIdentity: `${GM}-${i + 1}` })) } };
  s.events.add(Array.from({ length: events }, (_, i) => ({ at: NOW - (events - i) * 1000, severity: 'info' as const, section: 'ntp' as const, message: `source ntp${i % 7}.example.net: Selectable -> Combined with best` })));
  return s;
}

const sizes = [[40, 10], [60, 15], [80, 24], [100, 30], [120, 40], [160, 50], [200, 60], [250, 80]] as const;
const contents = [[0, 0, 0, 0], [1, 1, 1, 3], [3, 1, 2, 20], [6, 2, 4, 100], [10, 2, 8, 500]] as const;
const NTP_DROPPABLE = /\b(mode|poll|reach|last|error|offset trend|for)\b/;
const PTP_DROPPABLE = /\b(path delay|parent port|for)\b/;

describe('the layout over sizes and contents', () => {
  const cases = sizes.flatMap(([columns, rows], i) => contents.map((c, j) => ({ columns, rows, c, focus: PANES[(i + j) % PANES.length]! })));
  it.each(cases)('$columns x $rows, $c, focus $focus', ({ columns, rows, c, focus }) => {
    const state = stateWith(c[0], c[1], c[2], c[3]);
    const display = makeDisplay(false, false);
    const ui = { ...initialUiState, focus };
    const size = { columns, rows };
    const r = render(
      <DisplayContext.Provider value={display}>
        <Screen state={state} ui={ui} size={size} now={NOW} />
      </DisplayContext.Provider>,
    );
    const frame = stripAnsi(r.lastFrame() ?? '');
    r.unmount();
    expect(frameViolations(frame, columns, rows)).toEqual([]);

    const lines = frame.split('\n');
    const header = headerLines(state, NOW, display).length;
    const body = lines.slice(header, lines.length - 1);
    const needs = paneNeeds(state, ui, size, display, NOW);
    const plan = planLayout(size, focus, false, header + 1, needs);
    const heights = paneHeights(plan);
    const leftUnshown = PANES.some((p) => heights[p] < needs[p].full);
    if (leftUnshown) expect(body.filter((l) => l.trim() === '').length).toBeLessThanOrEqual(1);

    // An identity cut (its start shown, not the whole) only when no droppable column is left.
    const ntpHeader = lines.find((l) => /\bsource\b/.test(l) && /\boffset\b/.test(l));
    for (const name of NAMES.slice(0, c[0])) {
      if (ntpHeader && frame.includes(name.slice(0, 8)) && !frame.includes(name)) expect(ntpHeader).not.toMatch(NTP_DROPPABLE);
    }
    const ptpHeader = lines.find((l) => /\bgrandmaster\b/.test(l));
    if (ptpHeader && c[2] > 0 && frame.includes(GM.slice(0, 6)) && !frame.includes(GM)) expect(ptpHeader).not.toMatch(PTP_DROPPABLE);
  });
});
