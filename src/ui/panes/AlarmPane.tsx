import type { MonitorState } from '../../monitor/state.js';
import { lintAlarm } from '../../model/alarm-lint.js';
import type { AlarmData } from '../../model/snapshot.js';
import type { Line } from '../../view/cell.js';
import { alarmFields } from '../../view/alarm.js';
import { cell } from '../../view/cell.js';
import { sectionAge, sectionErrorLine } from '../../view/section.js';
import type { PaneNeed } from '../layout.js';
import { elastic } from '../layout.js';
import { FieldGrid, gridShape } from '../widgets/FieldGrid.js';
import { PaneFrame } from '../widgets/PaneFrame.js';
import { StyledLine } from '../widgets/StyledLine.js';
import type { PaneProps, PaneWatch } from './pane-props.js';
import { memoPane } from './pane-props.js';

const MAX_VALUE = 34;

/** "~ port 587 is the submission port ...: turn TLS on" — settings that will not deliver mail. */
export function alarmLintLines(data: AlarmData): Line[] {
  return lintAlarm(data).map((f) => [cell('~ ', 'warn', true), cell(f.message, 'warn')]);
}

/** The alarm pane: its fields and findings; any height down to one line of fields. */
export function alarmPaneNeed(state: MonitorState, width: number): PaneNeed {
  const data = state.alarm.data;
  const lint = data ? alarmLintLines(data).length : 0;
  const head = 1 + (state.alarm.error ? 1 : 0);
  const full = head + (data ? gridShape(alarmFields(data), width, MAX_VALUE).rows + lint : 1);
  return elastic(full, Math.min(full, head + 1));
}

function AlarmPaneView({ state, now, width, height, focused }: PaneProps) {
  const section = state.alarm;
  const data = section.data;
  const body = height - 1 - (section.error ? 1 : 0);
  const lint = data ? alarmLintLines(data) : [];
  // The findings stay visible under the fields: they say what to change. The fields give way.
  const fieldRows = data ? Math.max(1, Math.min(gridShape(alarmFields(data), width, MAX_VALUE, body - lint.length).rows, body - lint.length)) : 0;
  const lintShown = lint.slice(0, Math.max(0, body - fieldRows));
  return (
    <PaneFrame index={4} title="Alarm mail" status={sectionAge(section, state.intervalMs, now)} focused={focused} width={width} height={height}>
      {section.error ? <StyledLine line={sectionErrorLine(state, section.error)} width={width} /> : null}
      {!data && !section.error ? <StyledLine line={[cell('waiting for the first answer', 'muted')]} width={width} /> : null}
      {data ? <FieldGrid fields={alarmFields(data)} width={width} height={fieldRows} maxValueWidth={MAX_VALUE} /> : null}
      {lintShown.map((line, i) => (
        <StyledLine key={i} line={line} width={width} />
      ))}
    </PaneFrame>
  );
}

/** What the pane shows besides its slot and the clock: it renders again only when one of these changed. */
export const alarmPaneWatch: PaneWatch = (p) => [p.state.alarm];
export const AlarmPane = memoPane(AlarmPaneView, alarmPaneWatch);
