import type { Glyphs } from '../theme.js';
import type { Line } from '../renderers/cell.js';
import { cell } from '../renderers/cell.js';
import { bindingLabel, bindings } from '../keys.js';
import type { Notice } from '../ui-state.js';
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

/** The key hints, or for a few seconds a notice in their place ("screendump saved to ..."). */
export function Footer({ width, notice }: { width: number; notice?: Notice | null | undefined }) {
  const { glyphs } = useDisplay();
  return <StyledLine line={notice ? [cell(notice.text, notice.token, true)] : footerLine(glyphs)} width={width} />;
}
