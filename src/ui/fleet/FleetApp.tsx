/**
 * The fleet view: a summary line, one row per device, a merged event timeline (5), and Enter
 * to open the full single-device monitor of the selected device (every pane and key as in
 * `synctop URL`), Esc or Backspace to come back with the selection kept. The rows read every
 * device's latest state on the per-second render (a device's row shows its answer at most a
 * second after it arrives, whatever the others do), so fifty devices answering at their own
 * pace cost one render a second, not fifty.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Key } from 'ink';
import { Box, useInput } from 'ink';
import type { MonitorController } from '../../monitor/state.js';
import { formatDuration } from '../../model/units.js';
import { App } from '../App.js';
import { useTerminalSize } from '../hooks/useTerminalSize.js';
import type { Size } from '../layout.js';
import { coalesceRoutineUpdates } from '../terminal/render-cadence.js';
import { DisplayContext, makeDisplay, useDisplay } from '../widgets/Display.js';
import { StyledLine } from '../widgets/StyledLine.js';
import { Table } from '../widgets/Table.js';
import type { Cell, Line } from '../../view/cell.js';
import { cell } from '../../view/cell.js';
import { fleetEventLine, mergedEvents } from '../../view/fleet-events.js';
import { fleetColumns, fleetRowCache, fleetSummary, gmAgreement, gmDisagreementLine, selectedFindingsLines, type FleetMember, type FleetRow } from '../../view/fleet-rows.js';
import { keyLabel, splitKeys } from '../keys.js';
import { fleetBindings, fleetCommandFor, fleetUiReducer, initialFleetUi, type FleetAction, type FleetUiState } from './fleet-keys.js';
import { replayText } from '../../view/header.js';

/** One device of the fleet view: the name its row shows and the controller its monitor uses. */
export interface FleetDeviceView {
  name: string;
  controller: MonitorController;
}

export interface FleetAppProps {
  devices: readonly FleetDeviceView[];
  color: boolean;
  ascii: boolean;
  /** Fixed terminal size (tests); otherwise the real one, following resizes. */
  size?: Size | undefined;
  /** Clock (tests); otherwise the first device's controller's (replay), else Date.now. */
  now?: (() => number) | undefined;
  onQuit: () => void;
  onScreendump?: (() => Promise<string>) | undefined;
  bell?: boolean;
  /** false: the opened monitor renders on every answer (tests); default true. */
  coalesce?: boolean;
}

/** The timeline holds at most this many events of the whole fleet. */
export const FLEET_EVENT_LIMIT = 500;

export function FleetApp(props: FleetAppProps) {
  const { devices, color, ascii, size, onQuit } = props;
  const display = useMemo(() => makeDisplay(color, ascii), [color, ascii]);
  const terminal = useTerminalSize(size);
  const [ui, setUi] = useState<FleetUiState>(initialFleetUi);
  const clock = props.now ?? devices[0]?.controller.now ?? Date.now;
  const rowsOf = useMemo(() => fleetRowCache(), []);
  const [, setTick] = useState(0);

  // Everything the rows pane shows, and its text: the per-second check compares that text with
  // the frame on screen and renders only when it differs, so a second in which no row's text
  // changed (no answer, or answers that read the same) costs no render and no bytes.
  const view = (now: number) => {
    const members: FleetMember[] = devices.map((d) => ({ name: d.name, state: d.controller.getState() }));
    const rows = rowsOf(members, now, ui.sort, display);
    const gm = gmAgreement(members);
    const disagreement = gmDisagreementLine(gm);
    const state0 = members[0]?.state;
    const header: Line[] = [
      [
        cell('synctop fleet', 'title', true),
        cell(` ${display.glyphs.separator} `, 'muted'),
        cell(`every ${formatDuration((state0?.intervalMs ?? 0) / 1000)}`, 'muted'),
        cell(` ${display.glyphs.separator} `, 'muted'),
        state0?.replay ? cell(replayText(state0.replay, display.glyphs, state0.paused), 'accent', true) : cell(`${display.glyphs.live} LIVE`, 'ok', true),
        cell(` ${display.glyphs.separator} `, 'muted'),
        cell(`sorted by ${ui.sort}`, 'muted'),
      ],
      fleetSummary(rows, gm, display.glyphs),
      ...(disagreement ? [disagreement] : []),
    ];
    // The timeline and the opened monitor keep their own pace: the timeline renders every
    // second (its ages move), the opened monitor has its own tick.
    // The lines the rows leave free show the selected device's findings whole.
    const selectedAt = Math.max(0, ui.selected === null ? 0 : rows.findIndex((r) => r.name === ui.selected));
    const bodyLines = Math.max(0, terminal.rows - header.length - 1);
    const spare = bodyLines - (1 + rows.length);
    const selectedMember = members.find((m) => m.name === rows[selectedAt]?.name);
    const findings = selectedFindingsLines(selectedMember, terminal.columns, spare);
    const shown = ui.open !== null ? 'open' : ui.pane === 'events' ? `events ${now}` : viewText([...header, ...findings], rows);
    return { members, rows, header, findings, shown };
  };
  const latestView = useRef(view);
  latestView.current = view;
  const onScreen = useRef<string | null>(null);
  useEffect(() => {
    const timer = setInterval(() => {
      if (latestView.current(clock()).shown !== onScreen.current) setTick((n) => (n + 1) % 1_000_000);
    }, 1000);
    return () => clearInterval(timer);
  }, [clock]);

  const { members, rows, header, findings, shown } = view(clock());
  onScreen.current = shown;
  const events = ui.pane === 'events' ? mergedEvents(members, FLEET_EVENT_LIMIT) : [];

  const latest = useRef({ order: rows.map((r) => r.name), events: events.length });
  latest.current = { order: rows.map((r) => r.name), events: events.length };
  const act = useCallback((action: FleetAction) => setUi((s) => fleetUiReducer(s, action, latest.current.order, latest.current.events)), []);
  // Keys that arrive in one chunk (`j` then Enter typed fast, or over a slow SSH link) act one
  // after another, as in the single-device view; each action applies to the state the previous
  // one left (setUi's updater).
  const onInput = useCallback(
    (input: string, key: Key) => {
      for (const [one, k] of splitKeys(input, key)) {
        const command = fleetCommandFor(one, k);
        if (command?.type === 'quit') return onQuit();
        if (command) act(command);
      }
    },
    [act, onQuit],
  );
  useInput(onInput, { isActive: ui.open === null });

  const opened = ui.open === null ? undefined : devices.find((d) => d.name === ui.open);
  if (opened) {
    return (
      <OpenedDevice
        key={opened.name}
        device={opened}
        props={props}
        onBack={() => act({ type: 'close' })}
      />
    );
  }

  const selected = Math.max(0, ui.selected === null ? 0 : rows.findIndex((r) => r.name === ui.selected));
  const width = terminal.columns;
  const bodyHeight = Math.max(0, terminal.rows - header.length - 1);
  return (
    <DisplayContext.Provider value={display}>
      <Box flexDirection="column" width={width} height={terminal.rows} overflowY="hidden" flexShrink={0}>
        {header.map((line, i) => (
          <StyledLine key={`h${i}`} line={line} width={width} />
        ))}
        <Box flexDirection="column" width={width} height={bodyHeight} overflowY="hidden" flexShrink={0}>
          {ui.pane === 'rows' ? (
            <>
              <Table columns={fleetColumns} rows={rows.map((r) => r.cells)} width={width} height={bodyHeight - findings.length} selected={selected} />
              {findings.map((line, i) => (
                <StyledLine key={`f${i}`} line={line} width={width} />
              ))}
            </>
          ) : (
            <Timeline events={events} top={ui.eventsTop} width={width} height={bodyHeight} />
          )}
        </Box>
        <FleetFooter width={width} />
      </Box>
    </DisplayContext.Provider>
  );
}

/** The text of the rows pane: the header lines and every row's cells, with their styles. */
function viewText(header: readonly Line[], rows: readonly FleetRow[]): string {
  const line = (cells: readonly Cell[]) => cells.map((c) => `${c.token ?? ''}${c.bold ? '*' : ''}:${c.text}`).join('\t');
  return [...header.map(line), ...rows.map((r) => line(fleetColumns.map((c) => r.cells[c.key])))].join('\n');
}

/** The selected device's full monitor; Esc or Backspace comes back. */
function OpenedDevice({ device, props, onBack }: { device: FleetDeviceView; props: FleetAppProps; onBack: () => void }) {
  const cadence = useMemo(() => (props.coalesce === false ? null : coalesceRoutineUpdates(device.controller)), [device.controller, props.coalesce]);
  useEffect(() => () => cadence?.dispose(), [cadence]);
  return (
    <App
      controller={cadence?.controller ?? device.controller}
      color={props.color}
      ascii={props.ascii}
      size={props.size}
      now={props.now}
      onQuit={props.onQuit}
      {...(props.onScreendump ? { onScreendump: props.onScreendump } : {})}
      bell={props.bell ?? false}
      onBack={onBack}
    />
  );
}

function Timeline({ events, top, width, height }: { events: ReturnType<typeof mergedEvents>; top: number; width: number; height: number }) {
  const { glyphs } = useDisplay();
  if (height <= 0) return null;
  if (events.length === 0) return <StyledLine line={[cell('no events yet from any device', 'muted')]} width={width} />;
  const nameWidth = Math.min(20, Math.max(...events.map((e) => e.device.length)));
  const shown = events.slice(top, top + height - 1);
  const title: Line = [cell('5 Events of every device', 'title', true), cell(`  ${top + 1}-${top + shown.length} of ${events.length}, newest first`, 'muted')];
  return (
    <>
      <StyledLine line={title} width={width} />
      {shown.map((e, i) => (
        <StyledLine key={top + i} line={fleetEventLine(e, nameWidth, glyphs)} width={width} />
      ))}
    </>
  );
}

function FleetFooter({ width }: { width: number }) {
  const { glyphs } = useDisplay();
  const line: Line = [];
  for (const b of fleetBindings) {
    if (!b.footer) continue;
    if (line.length > 0) line.push(cell('  '));
    line.push(cell(keyLabel(b.keys[0]!, glyphs), 'accent', true), cell(` ${b.footer}`, 'muted'));
  }
  line.push(cell('  Esc', 'accent', true), cell(' back', 'muted'));
  return <StyledLine line={line} width={width} />;
}

/** The fleet view as an element, for runLiveMonitor's `view` (callers need no JSX). */
export function fleetElement(props: FleetAppProps) {
  return <FleetApp {...props} />;
}
