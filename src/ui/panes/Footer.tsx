import type { Glyphs } from '../../view/theme.js';
import type { Line } from '../../view/cell.js';
import { cell } from '../../view/cell.js';
import { bindingLabel, bindings, type Binding } from '../keys.js';
import type { Notice } from '../ui-state.js';
import { useDisplay } from '../widgets/Display.js';
import { StyledLine } from '../widgets/StyledLine.js';

/** The first key of a binding (or its digit range): the help overlay lists the others. */
function footerLabel(b: Binding, glyphs: Glyphs): string {
  return b.keys.length > 2 ? bindingLabel(b, glyphs) : bindingLabel({ ...b, keys: b.keys.slice(0, 1) }, glyphs);
}

/** The key hints, read from the key table itself. */
export function footerLine(glyphs: Glyphs): Line {
  const out: Line = [];
  for (const b of bindings) {
    if (!b.footer) continue;
    if (out.length > 0) out.push(cell('  '));
    out.push(cell(footerLabel(b, glyphs), 'accent', true), cell(` ${b.footer}`, 'muted'));
  }
  return out;
}

/** The key hints, or for a few seconds a notice in their place ("screendump saved to ..."). */
export function Footer({ width, notice }: { width: number; notice?: Notice | null | undefined }) {
  const { glyphs } = useDisplay();
  return <StyledLine line={notice ? [cell(notice.text, notice.token, true)] : footerLine(glyphs)} width={width} />;
}
