/**
 * The offset charts of a text report, drawn from kept history (a recording played through,
 * `replay FILE --once`): each PTP port's offset from master and the NTP sync source's offset,
 * with the same chart renderer as the zoomed panes. A one-poll report has no history: it says
 * so instead of drawing a chart of one point.
 */
import type { Line } from '../view/cell.js';
import { cell } from '../view/cell.js';
import { chartTitle, offsetChart, type ChartSamples } from '../view/chart.js';
import { offsetLimits } from '../view/theme.js';
import { seriesKey } from '../monitor/history.js';
import type { MonitorState } from '../monitor/state.js';

/** Lines of one chart, its axis and time ticks included: enough to read a trend, short enough to print. */
export const REPORT_CHART_HEIGHT = 8;

/** What a one-poll report says where the charts would be. */
export const NO_HISTORY_NOTE = 'one poll has no history to chart: the live monitor draws it (z), and so does `synctop replay FILE --once` from a recording';

export function historyCharts(state: MonitorState, opts: { width: number; ascii: boolean }): Line[] {
  const limits = offsetLimits(state.thresholds);
  const box = { width: opts.width, height: REPORT_CHART_HEIGHT, ascii: opts.ascii };
  const samplesOf = (key: string): ChartSamples | null => {
    const s = state.history.get(key)?.samples();
    return s && s.values.some((v) => Number.isFinite(v)) ? s : null;
  };
  const out: Line[] = [];
  const draw = (what: string, samples: ChartSamples | null, chartLimits: typeof limits.ptp) => {
    if (out.length > 0) out.push([]);
    if (!samples) out.push([cell(`${what}: no values recorded`, 'muted')]);
    else out.push(chartTitle(what, samples), ...offsetChart(samples, chartLimits, box));
  };
  for (const port of state.ptp.data?.ports ?? []) draw(`PTP port ${port.id} offset from master`, samplesOf(seriesKey.ptpOffset(port.id)), limits.ptp);
  const sync = state.ntp.data?.sources.find((s) => s.isSyncSource);
  if (sync) draw(`NTP sync source ${sync.name} offset`, samplesOf(seriesKey.ntpOffset(sync.name)), limits.ntp);
  if (out.length === 0) out.push([cell('no PTP port or NTP sync source in the recording', 'muted')]);
  return out;
}
