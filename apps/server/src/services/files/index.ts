// What other services may use from files (DESIGN.md §2); the lint keeps them out of its other files.
export type { FilesService } from './service';
