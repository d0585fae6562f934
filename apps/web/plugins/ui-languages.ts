import { constants, contractsModule } from './contracts-module.ts';

/**
 * Serves `virtual:ui-languages`: the contracts' `UI_LANGUAGES` (code, native name, direction) as
 * plain data. Importing it from `@ticket/contracts` would bring zod and the localization schemas
 * into the first screen's script for a table of 39 rows.
 */
export const uiLanguages = () => contractsModule('virtual:ui-languages', (contracts) => constants(contracts, ['UI_LANGUAGES']));
