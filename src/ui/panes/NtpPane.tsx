import { Box } from 'ink';
import { stateKey } from '../../monitor/events.js';
import type { MonitorState } from '../../monitor/state.js';
import { seriesKey } from '../../monitor/history.js';
import { STATS_WINDOW } from '../../monitor/stats.js';
import { cell, type Line } from '../../view/cell.js';
import { wrapLine } from '../../view/fit.js';
import type { Glyphs } from '../../view/theme.js';
import { chartTitle, offsetChart } from '../../view/chart.js';
import { ntpLegendLine, ntpLiveColumns, ntpNotProvidedLine, ntpSourceDetail, ntpSourceRow, ntpStatusLine } from '../../view/ntp-source.js';
import { sectionAge, sectionErrorLines } from '../../view/section.js';
import { timeInState } from '../../view/time.js';
import { offsetLimits } from '../../view/theme.js';
import type { PaneNeed } from '../layout.js';
import { elastic } from '../layout.js';
import { clampIndex, filterSources } from '../ui-state.js';
import { useDisplay } from '../widgets/Display.js';
import { PaneFrame } from '../widgets/PaneFrame.js';
import { StyledLine } from '../widgets/StyledLine.js';
import { Table } from '../widgets/Table.js';
import type { PaneProps, PaneWatch } from './pane-props.js';
import { memoPane } from './pane-props.js';

/** The selected source's detail: its state and offsets, then reach in words and offset spread. */
const DETAIL_LINES = 2;
/**
 * The key to the marks and what the API does not report, wrapped to the pane's width (never cut):
 * shown, each whole, when the pane has room left.
 */
function legendBlocks(glyphs: Glyphs, width: number): Line[][] {
  return [wrapLine(ntpLegendLine(glyphs), width, 2), wrapLine(ntpNotProvidedLine(), width, 2)];
}

/** The first blocks that fit in `lines`, whole. */
function legendThatFits(blocks: Line[][], lines: number): Line[] {
  const out: Line[] = [];
  for (const block of blocks) {
    if (out.length + block.length > lines) break;
    out.push(...block);
  }
  return out;
}

/** The NTP pane: title, error, status, table header and rows, detail; any height down to the header and one row. */
export function ntpPaneNeed(state: MonitorState, filter = '', width = Infinity, glyphs?: Glyphs): PaneNeed {
  const n = filterSources(state.ntp.data?.sources ?? [], filter).length;
  const data = state.ntp.data;
  // Title, error, then the status line (or "waiting for the first answer" when no error says why).
  const head = 1 + sectionErrorLines(state, state.ntp, width).length + (data || !state.ntp.error ? 1 : 0);
  const blocks = glyphs ? legendBlocks(glyphs, width).map((b) => b.length) : [1, 1];
  // No source to list: a line says so ("no sources configured", or none matches the filter).
  if (n === 0) return elastic(head + (data ? 1 : 0), head + (data ? 1 : 0));
  // Below the whole table and detail the table scrolls (any height); above them, the legend's
  // blocks are shown whole or not at all, so only the heights they fill exactly are asked for.
  const table = head + 1 + n + DETAIL_LINES;
  const full = table + blocks.reduce((sum, b) => sum + b, 0);
  return {
    full,
    fit: (lines) => {
      if (lines < head + 2) return 0;
      if (lines <= table) return lines;
      let used = table;
      for (const b of blocks) {
        if (used + b > lines) break;
        used += b;
      }
      return used;
    },
  };
}

const ntpInState = (state: MonitorState, name: string, now: number, ascii: boolean) => timeInState(state.stateClock, stateKey.ntp(name), now, ascii);

function NtpPaneView({ state, ui, now, width, height, focused }: PaneProps) {
  const display = useDisplay();
  const section = state.ntp;
  const data = section.data;
  const body = height - 1;
  const sources = filterSources(data?.sources ?? [], ui.ntpFilter);
  const selected = clampIndex(ui.ntpRow, sources.length);
  const errorLines = sectionErrorLines(state, section, width);
  const fixed = errorLines.length + (data ? 1 : 0);
  const tableSpace = body - fixed;
  // The full detail when every row fits beside it; one line while the table is tight; none below 3.
  // Zoomed (`z`): the table at the top, the selected source's offset over the kept history below.
  const charted = ui.zoomed && focused && sources.length > 0;
  const chartHeight = charted ? tableSpace - Math.min(1 + sources.length, Math.max(2, Math.floor(tableSpace / 4))) : 0;
  const legend = charted || sources.length === 0 ? [] : legendThatFits(legendBlocks(display.glyphs, width), tableSpace - (1 + sources.length + DETAIL_LINES));
  const legendLines = legend.length;
  const detailLines = charted || sources.length === 0 || tableSpace < 3 ? 0 : tableSpace >= 1 + sources.length + DETAIL_LINES ? DETAIL_LINES : 1;
  const opts = { ascii: display.ascii, glyphs: display.glyphs, limits: offsetLimits(state.thresholds).ntp };
  // The statistics window (the sparkline is its newest end): a frame's work never grows with the history.
  const history = (name: string) => state.history.values(seriesKey.ntpOffset(name), STATS_WINDOW);
  const rows = sources.map((src) => ntpSourceRow(src, history(src.name), { ...opts, inState: ntpInState(state, src.name, now, opts.ascii) }));
  const current = sources[selected];
  const chartSamples = charted && current ? state.history.get(seriesKey.ntpOffset(current.name))?.samples() : undefined;
  const chartLines =
    charted && current && chartHeight > 0
      ? [chartTitle(`offset of ${current.name}`, chartSamples ?? { times: [], values: [] }), ...offsetChart(chartSamples ?? { times: [], values: [] }, opts.limits, { width, height: chartHeight - 1, ascii: display.ascii })]
      : [];
  const detail = current ? ntpSourceDetail(current, history(current.name), { ...opts, width, inState: ntpInState(state, current.name, now, opts.ascii) }).slice(0, detailLines) : [];

  return (
    <PaneFrame index={1} title="NTP" status={sectionAge(section, state.intervalMs, now)} focused={focused} width={width} height={height}>
      {errorLines.map((line, i) => (
        <StyledLine key={`e${i}`} line={line} width={width} />
      ))}
      {data ? <StyledLine line={[...ntpStatusLine(data), ...(ui.ntpFilter ? [cell(`  filter /${ui.ntpFilter}: ${sources.length} shown`, 'accent')] : [])]} width={width} /> : null}
      {!data && !section.error ? <StyledLine line={[cell('waiting for the first answer', 'muted')]} width={width} /> : null}
      {data && sources.length === 0 ? <StyledLine line={[cell(ui.ntpFilter ? `no source name contains "${ui.ntpFilter}" (/ then Esc clears)` : 'no sources configured', 'muted')]} width={width} /> : null}
      {sources.length > 0 ? (
        <Box flexDirection="column" width={width}>
          <Table columns={ntpLiveColumns} rows={rows} width={width} height={tableSpace - detailLines - chartHeight - legendLines} selected={selected} />
          {chartLines.map((line, i) => (
            <StyledLine key={`c${i}`} line={line} width={width} />
          ))}
          {detail.map((line, i) => (
            <StyledLine key={i} line={line} width={width} />
          ))}
          {legend.map((line, i) => (
            <StyledLine key={`l${i}`} line={line} width={width} />
          ))}
        </Box>
      ) : null}
    </PaneFrame>
  );
}

/** What the pane shows besides its slot and the clock: it renders again only when one of these changed. */
export const ntpPaneWatch: PaneWatch = (p) => [p.state.ntp, p.ui.ntpRow, p.ui.ntpFilter, p.ui.zoomed];
export const NtpPane = memoPane(NtpPaneView, ntpPaneWatch);
