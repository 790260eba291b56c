import type { MonitorState } from '../../monitor/state.js';
import { alarmFields } from '../renderers/alarm.js';
import { cell } from '../renderers/cell.js';
import { sectionAge, sectionErrorLine } from '../renderers/section.js';
import { FieldGrid, gridShape } from '../widgets/FieldGrid.js';
import { PaneFrame } from '../widgets/PaneFrame.js';
import { StyledLine } from '../widgets/StyledLine.js';
import type { PaneProps } from './pane-props.js';

const MAX_VALUE = 34;

export function alarmPaneWant(state: MonitorState, width: number): number {
  const data = state.alarm.data;
  return 1 + (state.alarm.error ? 1 : 0) + (data ? gridShape(alarmFields(data), width, MAX_VALUE).rows : 1);
}

export function AlarmPane({ state, now, width, height, focused }: PaneProps) {
  const section = state.alarm;
  const data = section.data;
  const body = height - 1 - (section.error ? 1 : 0);
  return (
    <PaneFrame index={4} title="Alarm mail" status={sectionAge(section, state.intervalMs, now)} focused={focused} width={width} height={height}>
      {section.error ? <StyledLine line={sectionErrorLine(state, section.error)} width={width} /> : null}
      {!data && !section.error ? <StyledLine line={[cell('waiting for the first answer', 'muted')]} width={width} /> : null}
      {data ? <FieldGrid fields={alarmFields(data)} width={width} height={body} maxValueWidth={MAX_VALUE} /> : null}
    </PaneFrame>
  );
}
