/** The verdict lines for a device that refuses every operation, or whose API is not at the base URL. */
import { describe, expect, it } from 'vitest';
import { authError, refusedEverywhere } from '../../src/api/errors.js';
import { apiNotFoundMessage } from '../../src/monitor/health.js';

describe('every operation refused', () => {
  it.each([
    [['401', '401', '401', '401'], authError(401, 'ntp').message, 'not logged in (HTTP 401 from every operation): set SYNCTOP_TOKEN, or --token-file / --cookie-file'],
    [['401', '401', '401', '401'], authError(401, 'ntp', 'token from SYNCTOP_TOKEN').message, 'not logged in: token from SYNCTOP_TOKEN refused, wrong or expired (HTTP 401 from every operation)'],
    [['403', '401', '403', '403'], authError(403, 'ntp', 'session cookie from --cookie-file a.jar').message, 'not logged in: session cookie from --cookie-file a.jar refused, wrong, expired, or its user lacks the permissions (HTTP 403/401 from every operation)'],
    [['403', '403', '403', '403'], authError(403, 'ntp').message, 'not logged in (HTTP 403 from every operation): set SYNCTOP_TOKEN, or --token-file / --cookie-file'],
  ])('%j', (codes, first, line) => expect(refusedEverywhere(codes, first)).toBe(line));
});

describe('the API not at the base URL', () => {
  it.each([
    ['http://10.0.0.5/api/v1', 'device API not found: try http://10.0.0.5, without /api/v1 (HTTP 404 from every operation; tried http://10.0.0.5/api/v1/api/v1/ntp/get_input_sources_status)'],
    ['https://gm/prefix/api', 'device API not found: try https://gm/prefix, without /api (HTTP 404 from every operation; tried https://gm/prefix/api/api/v1/ntp/get_input_sources_status)'],
    ['http://10.0.0.5/wrong', 'device API not found: check the base URL http://10.0.0.5/wrong (HTTP 404 from every operation; tried http://10.0.0.5/wrong/api/v1/ntp/get_input_sources_status)'],
  ])('%s', (device, line) => expect(apiNotFoundMessage(device)).toBe(line));
});
