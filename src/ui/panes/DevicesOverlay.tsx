import type { DeviceChoice } from '../../monitor/state.js';
import { cell } from '../../view/cell.js';
import { clampIndex } from '../ui-state.js';
import { useDisplay } from '../widgets/Display.js';
import { PaneFrame } from '../widgets/PaneFrame.js';
import { Table } from '../widgets/Table.js';
import type { TableColumn, TableRow } from '../../view/table-layout.js';

type DeviceColumn = 'current' | 'name' | 'url';

const columns: readonly TableColumn<DeviceColumn>[] = [
  { key: 'current', header: ' ' },
  { key: 'name', header: 'profile', maxWidth: 32 },
  { key: 'url', header: 'device', flex: true, minWidth: 8 },
];

/**
 * The `d` device list (like kubectl contexts in k9s): every profile of the config file, the one
 * monitored now marked; ↑/↓ select, Enter switches, Esc closes.
 */
export function DevicesOverlay({ devices, selected, width, height }: { devices: readonly DeviceChoice[]; selected: number; width: number; height: number }) {
  const { glyphs } = useDisplay();
  const rows: TableRow<DeviceColumn>[] = devices.map((d) => ({
    current: cell(d.current ? glyphs.inUse : ' ', 'ok', true),
    name: cell(d.name, d.current ? 'ok' : undefined, d.current),
    url: cell(d.current ? `${d.url}  (monitored now)` : d.url, d.current ? 'ok' : 'muted'),
  }));
  return (
    <PaneFrame title="devices  (Enter switches, Esc closes)" status={[]} focused width={width} height={height}>
      <Table columns={columns} rows={rows} width={width} height={Math.max(0, height - 1)} selected={clampIndex(selected, devices.length)} />
    </PaneFrame>
  );
}
