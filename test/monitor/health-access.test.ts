/** The verdict lines for a device that refuses every operation, or whose API is not at the base URL. */
import { describe, expect, it } from 'vitest';
import { authError, refusedEverywhere } from '../../src/api/errors.js';
import { apiNotFoundMessage } from '../../src/monitor/health.js';

describe('every operation refused', () => {
  it.each([
    [['401', '401', '401', '401'], authError(401, 'ntp').message, 'not logged in (HTTP 401 from every operation): set SYNCTOP_TOKEN, or --token-file / --cookie-file'],
    [['401', '401', '401', '401'], authError(401, 'ntp', 'token').message, 'not logged in: token refused (HTTP 401 from every operation): it is wrong or has expired'],
    [['403', '401', '403', '403'], authError(403, 'ntp', 'cookie').message, 'not logged in: session cookie refused (HTTP 403/401 from every operation): it is wrong, expired, or its user lacks the permissions'],
  ])('%j', (codes, first, line) => expect(refusedEverywhere(codes, first)).toBe(line));
});

describe('the API not at the base URL', () => {
  it.each([
    ['http://10.0.0.5/api/v1', 'device API not found at http://10.0.0.5/api/v1 (HTTP 404 from every operation): try http://10.0.0.5 (the base URL ends before /api/v1); tried http://10.0.0.5/api/v1/api/v1/ntp/get_input_sources_status'],
    ['https://gm/prefix/api', 'device API not found at https://gm/prefix/api (HTTP 404 from every operation): try https://gm/prefix (the base URL ends before /api); tried https://gm/prefix/api/api/v1/ntp/get_input_sources_status'],
    ['http://10.0.0.5/wrong', 'device API not found at http://10.0.0.5/wrong (HTTP 404 from every operation): check the base URL; tried http://10.0.0.5/wrong/api/v1/ntp/get_input_sources_status'],
  ])('%s', (device, line) => expect(apiNotFoundMessage(device)).toBe(line));
});
