// What other services may use from settings (DESIGN.md §2); the lint keeps them out of its other files.
export { parsePanelCustomId, toPlatformEmbed } from './panel-message';
export { staffSubjectsByServer, type SettingsService } from './service';
