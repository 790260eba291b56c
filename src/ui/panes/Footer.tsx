import type { Glyphs } from '../theme.js';
import type { Line } from '../renderers/cell.js';
import { cell } from '../renderers/cell.js';
import { bindingLabel, bindings } from '../keys.js';
import { useDisplay } from '../widgets/Display.js';
import { StyledLine } from '../widgets/StyledLine.js';

/** The key hints, read from the key table itself. */
export function footerLine(glyphs: Glyphs): Line {
  const out: Line = [];
  for (const b of bindings) {
    if (!b.footer) continue;
    if (out.length > 0) out.push(cell('  '));
    out.push(cell(bindingLabel(b, glyphs), 'accent', true), cell(` ${b.footer}`, 'muted'));
  }
  return out;
}

export function Footer({ width }: { width: number }) {
  const { glyphs } = useDisplay();
  return <StyledLine line={footerLine(glyphs)} width={width} />;
}
