import type { healthCalls } from '../health';
import type { ExamplesOf } from './types';

export const healthExamples: ExamplesOf<typeof healthCalls> = {
  getHealth: { response: { status: 'ok' } },
  getHealthDetailed: {
    response: {
      status: 'ok',
      service: 'settings',
      version: '1.8.2',
      uptimeSeconds: 86_412,
      database: { status: 'ok', latencyMs: 1.8 },
      platform: { status: 'ok', latencyMs: 84 },
    },
  },
};
