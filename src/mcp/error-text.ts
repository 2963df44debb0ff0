/**
 * The SDK's McpError puts "MCP error <code>: " in front of its message, and its protocol
 * engine sends that message as the JSON-RPC error text; the client's McpError then adds the
 * prefix again ("MCP error -32602: MCP error -32602: …"). Every transport of ours passes
 * outgoing errors through `plainErrorText`, so the wire carries the message once.
 */

import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export function plainErrorText(message: JSONRPCMessage): JSONRPCMessage {
  if (!('error' in message) || typeof message.error !== 'object' || message.error === null) return message;
  const { code, message: text } = message.error;
  const prefix = `MCP error ${code}: `;
  if (typeof text !== 'string' || !text.startsWith(prefix)) return message;
  let plain = text;
  while (plain.startsWith(prefix)) plain = plain.slice(prefix.length);
  return { ...message, error: { ...message.error, message: plain } };
}
