import { describe, expect, it } from 'vitest';
import type { RawAlarmEmail } from '../../src/api/schemas.js';
import { normalizeAlarm } from '../../src/model/alarm.js';
import { alarmDataSchema } from '../../src/model/snapshot.js';

const config: RawAlarmEmail = {
  emailAlertEnabled: true,
  senderEmail: 'clock@example.org',
  senderName: 'Grandmaster 1',
  recipientEmails: ['noc@example.org', 'oncall@example.org'],
  alertLevel: 'major',
  includeDeviceId: true,
  smtpServer: 'smtp.example.org',
  smtpPort: 587,
  smtpTimeout: 30,
  smtpUseTLS: true,
  smtpUseAuth: true,
  smtpUsername: 'clock@example.org',
  smtpPassword: 'hunter2',
  emailSubjectPrefix: '[ALARM]',
  checkInterval: 60,
  maxEmailsPerHour: 20,
  retryCount: 3,
  retryDelay: 10,
};

describe('normalizeAlarm', () => {
  it('keeps every field and masks the password', () => {
    const data = normalizeAlarm(config, { showSecrets: false });
    expect(alarmDataSchema.parse(data)).toEqual(data);
    expect(data).toEqual({ ...config, smtpPassword: '***' });
  });

  it('shows the password with showSecrets', () => {
    expect(normalizeAlarm(config, { showSecrets: true }).smtpPassword).toBe('hunter2');
  });

  it.each<[string | null | undefined, boolean, string | null]>([
    [undefined, false, null],
    [null, false, null],
    [undefined, true, null],
    ['', false, ''],
    ['', true, ''],
    ['s3cret', false, '***'],
    ['s3cret', true, 's3cret'],
    ['pw\x1b[2J', true, 'pw\\x1b[2J'],
  ])('smtpPassword %j (showSecrets %j) -> %j', (smtpPassword, showSecrets, expected) => {
    expect(normalizeAlarm({ smtpPassword }, { showSecrets }).smtpPassword).toBe(expected);
  });

  it('gives nulls and no recipients for an empty object', () => {
    const data = normalizeAlarm({}, { showSecrets: false });
    expect(alarmDataSchema.parse(data)).toEqual(data);
    expect(data.recipientEmails).toEqual([]);
    expect(Object.entries(data).filter(([k]) => k !== 'recipientEmails').every(([, v]) => v === null)).toBe(true);
  });

  it('sanitizes every string', () => {
    const data = normalizeAlarm(
      { senderName: 'x\u202Ey', recipientEmails: ['a@b\x07'], emailSubjectPrefix: '\x1b]8;;http://e\x07', smtpServer: 'h\u200B' },
      { showSecrets: false },
    );
    expect(data.senderName).toBe('x\\u{202E}y');
    expect(data.recipientEmails).toEqual(['a@b\\x07']);
    expect(data.emailSubjectPrefix).toBe('\\x1b]8;;http://e\\x07');
    expect(data.smtpServer).toBe('h\\u{200B}');
  });

  it('keeps empty strings that were sent', () => {
    expect(normalizeAlarm({ senderName: '' }, { showSecrets: false }).senderName).toBe('');
  });
});
