/** Hand-built snapshots for the pure monitor logic: a healthy base and small edits of it. */
import type { GnssReceiver, NtpSource, PtpPort, Snapshot } from '../../src/model/snapshot.js';

export function source(over: Partial<NtpSource> = {}): NtpSource {
  return {
    name: 'ntp1.example',
    mode: 'Server',
    state: 'Selectable',
    isSyncSource: false,
    stratum: 2,
    pollSeconds: 64,
    reach: '377',
    reachCount: 8,
    lastRxSeconds: 12,
    offsetNs: 12_000,
    measuredOffsetNs: 15_000,
    errorNs: 120_000,
    ...over,
  };
}

export function receiver(over: Partial<GnssReceiver> = {}): GnssReceiver {
  return {
    id: 0,
    status: 'working',
    antenna: 'normal',
    ppsValid: true,
    latitudeDeg: 22.5,
    longitudeDeg: 113.9,
    altitudeM: 40,
    hdop: 0.8,
    vdop: 1.1,
    pdop: 1.4,
    utc: '2026-11-22T03:04:05.000Z',
    gpsLeapSeconds: 18,
    bdsLeapSeconds: 4,
    satellites: { gps: 10, glonass: 8, bds: 9, galileo: 6 },
    satellitesTotal: 33,
    ...over,
  };
}

export function port(over: Partial<PtpPort> = {}): PtpPort {
  return {
    id: 0,
    ok: true,
    portNumber: 1,
    syncState: 'STABLE',
    offsetFromMasterNs: 12,
    meanPathDelayNs: 850,
    masterOffsetNs: 12,
    stepsRemoved: 1,
    cumulativeRateOffsetPpm: 0.01,
    gmPresent: true,
    gmIdentity: '001122.fffe.334455',
    parentPortIdentity: '001122.fffe.334455-1',
    gmClockClass: 6,
    gmClockAccuracy: 0x21,
    gmOffsetScaledLogVariance: 0x4e5d,
    gmPriority1: 128,
    gmPriority2: 128,
    lastUpdate: Date.parse('2026-11-22T03:04:05Z') / 1000,
    ...over,
  };
}

export function healthy(): Snapshot {
  return {
    schema: 'synctop.snapshot/1',
    device: 'http://127.0.0.1:1',
    takenAt: '2026-11-22T03:04:05.000Z',
    ntp: {
      ok: true,
      data: {
        overallStatus: 'Synchronized',
        syncSource: 'GPS',
        sourceCount: 2,
        sources: [source({ name: 'GPS', mode: 'Reference clock', state: 'Best source', isSyncSource: true, stratum: 0, offsetNs: 50 }), source()],
      },
    },
    gnss: { ok: true, data: { receivers: [receiver()] } },
    ptp: { ok: true, data: { ports: [port(), port({ id: 1, parentPortIdentity: '001122.fffe.334456-2' })] } },
    alarm: {
      ok: true,
      data: {
        emailAlertEnabled: true,
        senderEmail: 'alarm@example.com',
        senderName: 'Clock',
        recipientEmails: ['noc@example.com'],
        alertLevel: 'major',
        includeDeviceId: true,
        smtpServer: 'smtp.example.com',
        smtpPort: 587,
        smtpTimeout: 30,
        smtpUseTLS: true,
        smtpUseAuth: true,
        smtpUsername: 'alarm@example.com',
        smtpPassword: '***',
        emailSubjectPrefix: '[clock]',
        checkInterval: 60,
        maxEmailsPerHour: 20,
        retryCount: 3,
        retryDelay: 10,
      },
    },
  };
}

/** A deep copy edited in place by `edit`. */
export function edited(edit: (s: Snapshot) => void, base: Snapshot = healthy()): Snapshot {
  const copy = structuredClone(base);
  edit(copy);
  return copy;
}

export const down = (message = 'connection refused: nothing listens at that address and port') =>
  ({ ok: false, error: { kind: 'network', code: 'ECONNREFUSED', message } }) as const;
