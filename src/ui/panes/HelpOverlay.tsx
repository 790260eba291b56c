import type { Glyphs } from '../../view/theme.js';
import { eventSeverities, ntpSourceStates } from '../../view/theme.js';
import type { Line } from '../../view/cell.js';
import { cell } from '../../view/cell.js';
import type { Field } from '../../view/field.js';
import { bindingLabel, bindings } from '../keys.js';
import { useDisplay } from '../widgets/Display.js';
import type { Display } from '../widgets/Display.js';
import { gridLines } from '../widgets/FieldGrid.js';
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

/** The help as lines at a width: the keys, then the symbols. It scrolls when taller than the pane. */
export function helpLines(width: number, display: Display): Line[] {
  const keys = keyHelpFields(display.glyphs);
  const legend = [...legendFields(), ...severityLegendFields().map((f) => ({ ...f, label: f.label, value: [cell('event: ', 'muted'), ...f.value] }))];
  return [
    ...gridLines(keys, width, 60, display.glyphs.ellipsis),
    [cell('Symbols: NTP source states (chrony), then event and verdict severities', 'title', true)],
    ...gridLines(legend, width, 40, display.glyphs.ellipsis),
  ];
}

export function HelpOverlay({ width, height, top = 0 }: { width: number; height: number; top?: number }) {
  const display = useDisplay();
  const lines = helpLines(width, display);
  const body = Math.max(0, height - 1);
  const overflow = lines.length > body;
  const room = overflow ? Math.max(0, body - 1) : body;
  const first = Math.max(0, Math.min(top, lines.length - room));
  const below = lines.length - first - room;
  const note = [first > 0 ? `${display.glyphs.up} ${first} above` : '', below > 0 ? `${display.glyphs.down} ${below} more (${display.glyphs.down}/PgDn)` : ''].filter(Boolean).join('  ');
  return (
    <PaneFrame title="help  (Esc or ? closes)" status={[]} focused width={width} height={height}>
      {lines.slice(first, first + room).map((line, i) => (
        <StyledLine key={first + i} line={line} width={width} />
      ))}
      {overflow && body > 0 ? <StyledLine line={[cell(note, 'muted')]} width={width} /> : null}
    </PaneFrame>
  );
}
