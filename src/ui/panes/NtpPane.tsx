import { Box } from 'ink';
import type { MonitorState } from '../../monitor/state.js';
import { seriesKey } from '../../monitor/history.js';
import { cell } from '../renderers/cell.js';
import { ntpColumns, ntpSourceDetail, ntpSourceRow, ntpStatusLine } from '../renderers/ntp-source.js';
import { sectionAge, sectionErrorLine } from '../renderers/section.js';
import { clampIndex } from '../ui-state.js';
import { useDisplay } from '../widgets/Display.js';
import { PaneFrame } from '../widgets/PaneFrame.js';
import { StyledLine } from '../widgets/StyledLine.js';
import { Table } from '../widgets/Table.js';
import type { PaneProps } from './pane-props.js';

/** Lines the NTP pane would like: title, error, status, table header and rows, detail. */
export function ntpPaneWant(state: MonitorState): number {
  const n = state.ntp.data?.sources.length ?? 0;
  return 1 + (state.ntp.error ? 1 : 0) + 1 + (n > 0 ? 2 + n : 0);
}

export function NtpPane({ state, ui, now, width, height, focused }: PaneProps) {
  const display = useDisplay();
  const section = state.ntp;
  const data = section.data;
  const body = height - 1;
  const sources = data?.sources ?? [];
  const selected = clampIndex(ui.ntpRow, sources.length);
  const fixed = (section.error ? 1 : 0) + (data ? 1 : 0);
  const tableSpace = body - fixed;
  const showDetail = sources.length > 0 && tableSpace >= 3;
  const opts = { ascii: display.ascii, glyphs: display.glyphs };
  const rows = sources.map((src) => ntpSourceRow(src, state.history.values(seriesKey.ntpOffset(src.name)), opts));
  const current = sources[selected];

  return (
    <PaneFrame index={1} title="NTP" status={sectionAge(section, state.intervalMs, now)} focused={focused} width={width} height={height}>
      {section.error ? <StyledLine line={sectionErrorLine(state, section.error)} width={width} /> : null}
      {data ? <StyledLine line={ntpStatusLine(data)} width={width} /> : null}
      {!data && !section.error ? <StyledLine line={[cell('waiting for the first answer', 'muted')]} width={width} /> : null}
      {data && sources.length === 0 ? <StyledLine line={[cell('no sources configured', 'muted')]} width={width} /> : null}
      {sources.length > 0 ? (
        <Box flexDirection="column" width={width}>
          <Table columns={ntpColumns} rows={rows} width={width} height={tableSpace - (showDetail ? 1 : 0)} selected={selected} />
          {showDetail && current ? <StyledLine line={ntpSourceDetail(current, opts)} width={width} /> : null}
        </Box>
      ) : null}
    </PaneFrame>
  );
}
