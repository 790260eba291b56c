/**
 * The four operations of the device API, as one table. Everything that differs between
 * operations lives here: the path, how the request body is built, the schema of the answer,
 * the permission it needs and what a technician is told when it is refused.
 */
import type { z } from 'zod';
import { alarmEmailSchema, gnssListSchema, ntpStatusSchema, ptpSlaveSchema } from './schemas.js';

export type OperationName = 'ntp' | 'gnss' | 'alarm' | 'ptp';

interface Operation<S extends z.ZodType> {
  /** Name of the operation in the device's documentation. */
  apiName: string;
  path: string;
  /** The device wants `{}` (never an empty body) when there are no parameters. */
  body: (params: { id?: number }) => Record<string, unknown>;
  schema: S;
  permission: string;
  /** Said when the device refuses the operation (401/403). */
  refused: string;
}

const noParams = () => ({});
const withId = ({ id }: { id?: number }) => (id === undefined ? {} : { id });

export const operations = {
  ntp: {
    apiName: 'get_input_sources_status',
    path: '/api/v1/ntp/get_input_sources_status',
    body: noParams,
    schema: ntpStatusSchema,
    permission: 'ntp:get_input_sources_status',
    refused: 'the NTP input sources need a logged-in session with permission ntp:get_input_sources_status',
  },
  gnss: {
    apiName: 'device_status_list',
    path: '/api/v1/gnss/device_status_list',
    body: withId,
    schema: gnssListSchema,
    permission: 'gnss:device_status_list',
    refused: 'the GNSS receivers need permission gnss:device_status_list',
  },
  alarm: {
    apiName: 'get_alarm_email',
    path: '/api/v1/alarm/get_alarm_email',
    body: noParams,
    schema: alarmEmailSchema,
    permission: 'alarm:get_alarm_email',
    refused: 'the alarm e-mail configuration needs permission alarm:get_alarm_email',
  },
  ptp: {
    apiName: 'slave_sync_info',
    path: '/api/v1/ptp/slave_sync_info_x',
    body: withId,
    schema: ptpSlaveSchema,
    permission: 'ptp:status_list',
    refused: 'the PTP slave ports need permission ptp:status_list',
  },
} as const satisfies Record<OperationName, Operation<z.ZodType>>;

export type RawData<K extends OperationName> = z.output<(typeof operations)[K]['schema']>;

export const operationNames = Object.keys(operations) as OperationName[];

