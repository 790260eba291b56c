import type { MonitorState } from '../../monitor/state.js';
import { lintAlarm } from '../../model/alarm-lint.js';
import type { AlarmData } from '../../model/snapshot.js';
import type { Line } from '../../view/cell.js';
import { alarmFields } from '../../view/alarm.js';
import { cell } from '../../view/cell.js';
import { wrapLine } from '../../view/fit.js';
import { sectionAge, sectionErrorLines } from '../../view/section.js';
import type { PaneNeed } from '../layout.js';
import { elastic } from '../layout.js';
import { FieldGrid, gridShape, wrappedGridRows } from '../widgets/FieldGrid.js';
import { PaneFrame } from '../widgets/PaneFrame.js';
import { StyledLine } from '../widgets/StyledLine.js';
import type { PaneProps, PaneWatch } from './pane-props.js';
import { memoPane } from './pane-props.js';

const MAX_VALUE = 34;

/**
 * "~ port 587 is the submission port ...: turn TLS on" — settings that will not deliver mail,
 * each a sentence wrapped to the pane's width (never cut: the end says what to change).
 */
export function alarmLintLines(data: AlarmData, width: number): Line[] {
  return lintAlarm(data).flatMap((f) => wrapLine([cell('~ ', 'warn', true), cell(f.message, 'warn')], width, 2));
}

/** The alarm pane: its fields and findings; any height down to one line of fields. */
export function alarmPaneNeed(state: MonitorState, width: number): PaneNeed {
  const data = state.alarm.data;
  const head = 1 + sectionErrorLines(state, state.alarm, width).length;
  // Without data: "waiting for the first answer", unless the error line says why.
  if (!data) return elastic(head + (state.alarm.error ? 0 : 1), head + (state.alarm.error ? 0 : 1));
  const fields = head + gridShape(alarmFields(data), width, MAX_VALUE).rows;
  const full = fields + alarmLintLines(data, width).length;
  // The findings are wrapped all or none (see the view): between the two heights the pane would
  // leave lines empty, so it takes the one-line form there; and where lines are shared out, a
  // finding cut to one line is what it asks for.
  const ask = fields + lintAlarm(data).length;
  const base = elastic(full, Math.min(full, head + 1));
  return { full, fit: (lines) => (lines >= full ? full : lines >= ask ? ask : base.fit(lines)), ask };
}

function AlarmPaneView({ state, now, width, height, focused }: PaneProps) {
  const section = state.alarm;
  const data = section.data;
  const oneLineError = sectionErrorLines(state, section, width);
  const fields = data ? alarmFields(data) : [];
  const rows = gridShape(fields, width, MAX_VALUE).rows;
  // The findings wrapped whole when the fields still fit beside them, else a line each.
  const wrapped = data ? alarmLintLines(data, width) : [];
  const lint = data && height - 1 - oneLineError.length - wrapped.length < rows ? alarmLintLines(data, Number.POSITIVE_INFINITY) : wrapped;
  // Lines to spare below all that: an error beside the data wraps there, then long values do.
  const spare = data ? height - 1 - oneLineError.length - rows - lint.length : 0;
  const errorLines = sectionErrorLines(state, section, width, undefined, spare);
  const body = height - 1 - errorLines.length;
  // The findings stay visible under the fields: they say what to change. The fields give way.
  const fieldRows = data ? Math.max(1, Math.min(wrappedGridRows(fields, width, MAX_VALUE), body - lint.length)) : 0;
  const lintShown = lint.slice(0, Math.max(0, body - fieldRows));
  return (
    <PaneFrame index={4} title="Alarm mail" status={sectionAge(section, state.intervalMs, now)} focused={focused} width={width} height={height}>
      {errorLines.map((line, i) => (
        <StyledLine key={`e${i}`} line={line} width={width} />
      ))}
      {!data && !section.error ? <StyledLine line={[cell('waiting for the first answer', 'muted')]} width={width} /> : null}
      {data ? <FieldGrid fields={fields} width={width} height={fieldRows} maxValueWidth={MAX_VALUE} /> : null}
      {lintShown.map((line, i) => (
        <StyledLine key={i} line={line} width={width} />
      ))}
    </PaneFrame>
  );
}

/** What the pane shows besides its slot and the clock: it renders again only when one of these changed. */
export const alarmPaneWatch: PaneWatch = (p) => [p.state.alarm];
export const AlarmPane = memoPane(AlarmPaneView, alarmPaneWatch);
