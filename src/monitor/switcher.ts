/**
 * The `d` device switcher (like kubectl contexts in k9s): one controller in front of the poller
 * of the chosen device profile. Switching stops the old poller, closes its connection and starts
 * a fresh one; the views keep their subscription to this controller and simply see a new state.
 */
import type { Snapshot } from '../model/snapshot.js';
import type { DeviceChoice, MonitorController, MonitorState } from './state.js';

/** What the switcher needs of a poller. */
export interface SwitchablePoller extends MonitorController {
  start(): void;
  stop(): void;
  snapshot(): Snapshot;
}

export interface DeviceEntry {
  name: string;
  url: string;
  /** Builds the poller (and its client) for this device; called on every switch to it. */
  open(): { poller: SwitchablePoller; close(): void };
}

export class DeviceSwitcher implements MonitorController {
  private active: { entry: DeviceEntry; poller: SwitchablePoller; close(): void };
  private readonly listeners = new Set<() => void>();
  private unsubscribe: () => void;

  constructor(
    private readonly entries: DeviceEntry[],
    initial: string,
  ) {
    const entry = entries.find((e) => e.name === initial) ?? entries[0];
    if (!entry) throw new Error('no device to monitor');
    this.active = { entry, ...entry.open() };
    this.unsubscribe = this.active.poller.subscribe(this.emit);
  }

  getState = (): MonitorState => this.active.poller.getState();
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  pollNow = (): void => this.active.poller.pollNow();
  setPaused = (paused: boolean): void => this.active.poller.setPaused(paused);

  snapshot = (): Snapshot => this.active.poller.snapshot();

  devices = (): DeviceChoice[] => this.entries.map((e) => ({ name: e.name, url: e.url, current: e === this.active.entry }));

  switchDevice = (name: string): void => {
    const entry = this.entries.find((e) => e.name === name);
    if (!entry || entry === this.active.entry) return;
    this.unsubscribe();
    this.active.poller.stop();
    this.active.close();
    this.active = { entry, ...entry.open() };
    this.unsubscribe = this.active.poller.subscribe(this.emit);
    this.active.poller.start();
    this.emit();
  };

  get current(): string {
    return this.active.entry.name;
  }

  start(): void {
    this.active.poller.start();
  }

  stop(): void {
    this.unsubscribe();
    this.active.poller.stop();
    this.active.close();
  }

  private emit = (): void => {
    for (const l of this.listeners) l();
  };
}
