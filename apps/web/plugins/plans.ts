import { constants, contractsModule } from './contracts-module.ts';

/** The plan constants of the contracts that the web shows (prices, limits, features). */
const EXPORTS = ['PLANS', 'PLAN_FEATURES', 'PRICE_CURRENCY', 'BILLING_INTERVAL_MONTHS', 'REFUND_WINDOW_DAYS', 'CARBON_REMOVAL_SHARE'] as const;

/**
 * Serves `virtual:plans`: the contracts' plan constants as plain data. Importing `PLANS` from
 * `@ticket/contracts` directly would drag zod and every schema of payment.ts into the browser
 * (about 37 KB gzipped) for a table of numbers.
 */
export const plans = () => [
  contractsModule('virtual:plans', (contracts) => constants(contracts, EXPORTS)),
  // Every signed-in screen needs each plan's level (the menu's premium items); only the staff
  // screens need the rest of the table.
  contractsModule('virtual:plans/levels', (contracts) => {
    const table = contracts.PLANS as Record<string, { level: number }> | undefined;
    if (!table) throw new Error('@ticket/contracts exports no PLANS');
    const levels = Object.fromEntries(Object.entries(table).map(([plan, { level }]) => [plan, level]));
    return `export const PLAN_LEVELS = ${JSON.stringify(levels)};`;
  }),
];
