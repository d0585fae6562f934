import { UnauthorizedError } from '../../http/errors';
import { isSignedInteraction } from '../../platform/interaction-signature';

export interface InteractionKeys {
  /** The main application: its id and the public key (hex) the platform signs its interactions with. */
  main: { applicationId: string; publicKey: string };
  /** A white-label bot's key by its application id (deployment's WhitelabelLookup); null when no bot is that application. */
  whitelabelKey: (applicationId: string) => Promise<string | null>;
}

/**
 * Each interaction is verified with the key of the application it names (`application_id`): the
 * main application's, or that of the white-label bot that is that application. An application we
 * do not serve, or a signature by another application's key, answers 401.
 */
export async function verifyInteraction(
  keys: InteractionKeys,
  applicationId: unknown,
  signature: string | undefined,
  timestamp: string | undefined,
  rawBody: string,
): Promise<void> {
  const refused = () => new UnauthorizedError('invalid request signature');
  // The platform always names the application; a body without one is checked as the main one's.
  const id = applicationId === undefined || applicationId === null ? keys.main.applicationId : applicationId;
  if (typeof id !== 'string' || !/^\d{1,20}$/.test(id)) throw refused();
  const key = id === keys.main.applicationId ? keys.main.publicKey : await keys.whitelabelKey(id);
  if (!key || !isSignedInteraction(key, signature, timestamp, rawBody)) throw refused();
}
