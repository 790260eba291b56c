/**
 * One line per section for the collapsed panes of the small layouts and the one-screen
 * summary: the verdict, the one number that matters most, the data's age, the error. Pure.
 */
import type { MonitorState } from '../monitor/state.js';
import { formatOffset } from '../model/units.js';
import type { PaneId } from '../ui/ui-state.js';
import { paneTitles, PANES } from '../ui/ui-state.js';
import type { Glyphs } from './theme.js';
import { antennaStates, flagStyle, offsetLimits, offsetToken, styleOf } from './theme.js';
import type { Cell, Line } from './cell.js';
import { cell, joinCells } from './cell.js';
import { eventsSummary, freshCount } from './events.js';
import { sectionAge } from './section.js';
import { gnssVerdict, ntpVerdict, ptpVerdict } from './verdict.js';

export interface SummaryOptions {
  ascii: boolean;
  glyphs: Glyphs;
}

function details(pane: Exclude<PaneId, 'events'>, state: MonitorState, opts: SummaryOptions): Cell[] {
  const off = (ns: number | null) => formatOffset(ns, { ascii: opts.ascii });
  const limits = offsetLimits(state.thresholds);
  switch (pane) {
    case 'ntp': {
      const best = state.ntp.data?.sources.find((s) => s.isSyncSource);
      return [ntpVerdict(state), ...(best ? [cell(', offset '), cell(off(best.offsetNs), offsetToken(best.offsetNs, limits.ntp))] : [])];
    }
    case 'gnss': {
      const rx = state.gnss.data?.receivers.find((r) => r.status === 'working');
      if (!rx) return [gnssVerdict(state)];
      const ant = styleOf(antennaStates, rx.antenna);
      const pps = flagStyle(rx.ppsValid, ['valid', 'invalid']);
      return [gnssVerdict(state), cell(', antenna '), cell(ant.word, ant.token), cell(', PPS '), cell(pps.word, pps.token)];
    }
    case 'ptp': {
      const port = state.ptp.data?.ports.find((p) => p.ok);
      return [ptpVerdict(state), ...(port ? [cell(`, port ${port.id} offset `), cell(off(port.offsetFromMasterNs), offsetToken(port.offsetFromMasterNs, limits.ptp))] : [])];
    }
    case 'alarm': {
      const data = state.alarm.data;
      if (!data) return [cell(state.alarm.error ? 'alarm mail unreadable' : 'alarm mail waiting', state.alarm.error ? 'bad' : 'muted')];
      const on = flagStyle(data.emailAlertEnabled, ['on', 'off'], false);
      const to = data.recipientEmails.length;
      return [
        cell('mail alerts '),
        cell(on.word, on.token),
        cell(data.alertLevel ? ` ${data.alertLevel}+` : ''),
        cell(` to ${to} recipient${to === 1 ? '' : 's'}`),
      ];
    }
  }
}

export function sectionSummary(pane: PaneId, state: MonitorState, nowMs: number, opts: SummaryOptions, eventsSeenAt = 0): Line {
  const index = PANES.indexOf(pane) + 1;
  const title = cell(`${index} ${paneTitles[pane]}`.padEnd(13), 'title', true);
  if (pane === 'events') {
    const recent = state.events.newestFirst(100);
    return [title, ...eventsSummary(recent[0], freshCount(recent, eventsSeenAt))];
  }
  const section = state[pane];
  const err = section.error;
  return joinCells(
    [
      [title, ...details(pane, state, opts)],
      sectionAge(section, state.intervalMs, nowMs),
      // While the whole device is unreachable the header banner already gives the reason.
      err ? [cell(state.unreachable && err.kind === 'network' ? '! no answer' : `! ${err.kind}: ${err.message}`, 'bad')] : [],
    ],
    ` ${opts.glyphs.separator} `,
  );
}
