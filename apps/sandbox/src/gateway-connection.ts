import { constants as zlibConstants, deflateRawSync, deflateSync } from 'node:zlib';
import { WebSocket } from 'ws';
import type { RawData } from 'ws';
import type { GatewaySession } from './gateway.ts';

/** With identify `compress: true`, Discord zlib-compresses some payloads: here, the big ones. */
const PAYLOAD_COMPRESSION_MIN_BYTES = 1024;
// The two-byte zlib header (deflate, 32K window, default level) that starts a zlib-stream.
const ZLIB_HEADER = Buffer.from([0x78, 0x9c]);

/** One WebSocket and what the gateway knows of it; a session outlives its connections. */
export interface Connection {
  socket: WebSocket;
  session: GatewaySession | null;
  /** Base URL the client reached us at, handed out as resume_gateway_url. */
  url: string;
  transportCompression: boolean;
  zlibStarted: boolean;
  payloadCompression: boolean;
  heartbeatTimer: NodeJS.Timeout | null;
  reconnectTimer: NodeJS.Timeout | null;
  received: number;
  windowStartedAt: number;
  closing: boolean;
}

export function newConnection(socket: WebSocket, url: string): Connection {
  return {
    socket,
    session: null,
    url,
    transportCompression: false,
    zlibStarted: false,
    payloadCompression: false,
    heartbeatTimer: null,
    reconnectTimer: null,
    received: 0,
    windowStartedAt: Date.now(),
    closing: false,
  };
}

export function rawBytes(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

/** Sends one gateway message as the connection asked for it: plain text, a zlib-stream chunk, or a zlib payload. */
export function sendText(connection: Connection, text: string): void {
  if (connection.socket.readyState !== WebSocket.OPEN) return;
  if (connection.transportCompression) {
    // Each message is its own raw deflate run ending in a sync flush (00 00 ff ff), so together
    // they form one zlib stream the client inflates with a single context, as with Discord's.
    const body = deflateRawSync(Buffer.from(text), { finishFlush: zlibConstants.Z_SYNC_FLUSH });
    connection.socket.send(connection.zlibStarted ? body : Buffer.concat([ZLIB_HEADER, body]), { binary: true });
    connection.zlibStarted = true;
  } else if (connection.payloadCompression && text.length >= PAYLOAD_COMPRESSION_MIN_BYTES) {
    connection.socket.send(deflateSync(text), { binary: true });
  } else {
    connection.socket.send(text);
  }
}

export function clearTimers(connection: Connection): void {
  if (connection.heartbeatTimer) clearTimeout(connection.heartbeatTimer);
  if (connection.reconnectTimer) clearTimeout(connection.reconnectTimer);
  connection.heartbeatTimer = null;
  connection.reconnectTimer = null;
}
