import { WHITELABEL_CHANGES_CHANNEL, WhitelabelChangeNotice } from '@ticket/contracts';
import { createNotices, type Notices } from '../../platform/notices';

export type ChangeListener = (notice: WhitelabelChangeNotice) => void;

/**
 * How a change of a white-label bot reaches the bot runners promptly: published once per change,
 * after it is stored. Without Redis it is an event of this process (a runner started in process
 * listens with `subscribe`). With REDIS_URL it is published on Redis pub/sub, channel
 * `WHITELABEL_CHANGES_CHANNEL` ('deployment:whitelabel-changes'), as the JSON of a
 * `WhitelabelChangeNotice`: `{serverId, change, status, revision, at}`, never a token. Runners in
 * other processes subscribe there; listeners here hear every API process's notices through it too.
 * A notice lost (Redis down, a runner restarting) is made up for by the runner's list of bots
 * (`GET /whitelabel?shardId=&shardCount=`), which stays the truth.
 */
export type ChangeNotices = Notices<WhitelabelChangeNotice>;

export function createChangeNotices(redisUrl: string | null): ChangeNotices {
  return createNotices({
    redisUrl,
    channel: WHITELABEL_CHANGES_CHANNEL,
    encode: (notice) => JSON.stringify(notice),
    decode: (text) => WhitelabelChangeNotice.parse(JSON.parse(text)),
  });
}
