import { Box } from 'ink';
import type { Glyphs } from '../../view/theme.js';
import { eventSeverities, ntpSourceStates } from '../../view/theme.js';
import { cell } from '../../view/cell.js';
import type { Field } from '../../view/field.js';
import { bindingLabel, bindings } from '../keys.js';
import { useDisplay } from '../widgets/Display.js';
import { FieldGrid, gridShape } from '../widgets/FieldGrid.js';
import { PaneFrame } from '../widgets/PaneFrame.js';
import { StyledLine } from '../widgets/StyledLine.js';

/** Every binding, from the same table the keyboard hook acts on. */
export function keyHelpFields(glyphs: Glyphs): Field[] {
  return bindings.map((b) => ({ label: bindingLabel(b, glyphs), value: [cell(b.help)] }));
}

/** chrony's state symbols, from the same table the NTP pane colors with. */
export function legendFields(): Field[] {
  return Object.entries(ntpSourceStates).map(([state, style]) => ({
    label: style.symbol,
    value: [cell(state, style.token)],
  }));
}

/** The event and verdict symbols, from the same table the events pane and header use. */
export function severityLegendFields(): Field[] {
  return Object.values(eventSeverities).map((style) => ({
    label: style.symbol,
    value: [cell(style.word === 'recovered' ? 'OK / recovered' : style.word, style.token)],
  }));
}

export function HelpOverlay({ width, height }: { width: number; height: number }) {
  const { glyphs } = useDisplay();
  const keys = keyHelpFields(glyphs);
  const legend = [...legendFields(), ...severityLegendFields().map((f) => ({ ...f, label: f.label, value: [cell('event: ', 'muted'), ...f.value] }))];
  const body = height - 1;
  const legendRows = gridShape(legend, width, 40).rows;
  const keyRows = Math.max(1, Math.min(gridShape(keys, width, 60).rows, body - legendRows - 1));
  return (
    <PaneFrame title="help  (Esc or ? closes)" status={[]} focused width={width} height={height}>
      <FieldGrid fields={keys} width={width} height={keyRows} maxValueWidth={60} />
      <Box height={1} flexShrink={0}>
        <StyledLine line={[cell('Symbols: NTP source states (chrony), then event and verdict severities', 'title', true)]} width={width} />
      </Box>
      <FieldGrid fields={legend} width={width} height={Math.max(0, body - keyRows - 1)} />
    </PaneFrame>
  );
}
