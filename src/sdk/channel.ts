import type { BotMessage } from '../protocol/messages.ts';

/**
 * The SDK's view of a transport: text in, messages out. WebSocket and stdio both implement it, so the
 * solve loop (serve.ts) is the same for both.
 */
export interface Channel {
  /** Sends one message; resolves once it is handed to the OS (back-pressure for long streams). */
  send(message: BotMessage): Promise<void>;
  /** Registers the handler for each incoming text message. */
  onMessage(listener: (text: string) => void): void;
  /** Registers the handler for the end of the connection. */
  onClose(listener: (reason: string) => void): void;
  /** Closes the connection. */
  close(): void;
}
