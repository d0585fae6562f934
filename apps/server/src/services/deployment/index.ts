// What other parts of the server may use from deployment (DESIGN.md §2); the lint keeps them out of its other files.
export type { DeploymentService } from './service';
export { createChangeNotices, type ChangeListener, type ChangeNotices } from './change-notices';
