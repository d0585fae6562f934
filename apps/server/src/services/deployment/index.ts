// What other parts of the server may use from deployment (DESIGN.md §2); the lint keeps them out of its other files.
export type { DeploymentService, RunningWhitelabelBot } from './service';
export { createChangeNotices, type ChangeListener, type ChangeNotices } from './change-notices';

import type { RunningWhitelabelBot } from './service';

/**
 * What the rest of the server asks of the white-label bots: the key an application's interactions
 * are signed with (null: no white-label bot is that application), and the bots that run (a
 * server's platform calls go out as its bot; none: the main bot speaks). DeploymentService implements it.
 */
export interface WhitelabelLookup {
  applicationPublicKey(applicationId: string): Promise<string | null>;
  runningBot(serverId: string): Promise<RunningWhitelabelBot | null>;
  runningBots(): Promise<RunningWhitelabelBot[]>;
}
